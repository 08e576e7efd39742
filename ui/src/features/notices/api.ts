import {
  type markNoticesReadSchema,
  noticeListSchema,
  notificationSettingsSchema,
  type notificationSettingsUpdateSchema,
} from '@shared/notices/noticesApi.ts';
import type { z } from 'zod';
import { api } from '../../app/api.ts';

export const noticeKeys = {
  list: ['/api/notices'] as const,
  settings: ['/api/user/notification-settings'] as const,
};

export type NoticeList = z.output<typeof noticeListSchema>;
export type NotificationSettings = z.output<typeof notificationSettingsSchema>;

export const noticesApi = {
  list: () => api.get('/api/notices', noticeListSchema),
  markRead: (body: z.input<typeof markNoticesReadSchema>) => api.send('POST', '/api/notices/read', body, noticeListSchema),
  settings: () => api.get('/api/user/notification-settings', notificationSettingsSchema),
  saveSettings: (body: z.input<typeof notificationSettingsUpdateSchema>) =>
    api.send('PUT', '/api/user/notification-settings', body, notificationSettingsSchema),
};

/** The people with a bell and settings (the server answers 403 to anyone else, a view-only login included). */
export const hasNotices = (role: string | null | undefined) => role === 'student' || role === 'parent' || role === 'tutor';
