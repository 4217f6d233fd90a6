import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { mergeTranslations } from 'react-admin';
import { en, type ConsoleMessages } from '../i18n/en';

type LeafKeys<T> = {
  [K in keyof T & (string | number)]: T[K] extends string ? `${K}` : `${K}.${LeafKeys<T[K]>}`;
}[keyof T & (string | number)];

/** Every key of src/i18n/en.ts; typing keys with it makes a typo a compile error. */
export type MessageKey = LeafKeys<ConsoleMessages>;

// ra-language-english provides react-admin's own texts (buttons, pagination, errors).
const messages = mergeTranslations(englishMessages, en);

export const i18nProvider = polyglotI18nProvider(() => messages, 'en', [{ locale: 'en', name: 'English' }], {
  allowMissing: true,
});
