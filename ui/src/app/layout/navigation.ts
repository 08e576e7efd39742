/** The public navigation of spec part 1 §2, in order. */
export const primaryNav = [
  { to: '/', label: 'Home' },
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/subjects', label: 'Subjects' },
  { to: '/about', label: 'About Us' },
  { to: '/contact', label: 'Contact' },
] as const;

export const loginNav = [
  { to: '/login', label: 'Student Login' },
  { to: '/tutor-login', label: 'Tutor Login' },
] as const;
