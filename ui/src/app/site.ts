/** Public-site facts shown in several places. Keep the support wording in one place. */
export const site = {
  name: 'Topmark',
  supportEmail: 'support@topmark.ca',
  /** NANP 555-01xx: reserved fictional range; replace with the real support line before launch. */
  supportPhone: '+1 (647) 555-0142',
  supportPhoneHref: 'tel:+16475550142',
  supportHours: 'Mon-Fri 9 AM-6 PM EST',
  replyPromise: 'We reply within 24 hours',
  location: 'Ontario, Canada',
} as const;
