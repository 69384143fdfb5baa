// The Settings tabs, in order; their own module so the route's search rule does not pull the page into the main bundle.
export const SETTINGS_TABS = ['general', 'addresses', 'notifications', 'security'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];
