/** Where the language switcher's links lead (language-switch.ts). */
export const LANGUAGE_PATH = '/language';
