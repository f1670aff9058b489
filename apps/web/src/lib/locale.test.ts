import { describe, expect, it } from 'vitest';
import { localeFromPath, localizePath, stripLocale } from './locale.ts';

describe('locale paths', () => {
  it('reads and strips the prefix', () => {
    expect(localeFromPath('/lv/login')).toBe('lv');
    expect(localeFromPath('/login')).toBeNull();
    expect(localeFromPath('/en/login')).toBeNull();
    expect(stripLocale('/fr/account/edit')).toBe('/account/edit');
    expect(stripLocale('/es')).toBe('/');
    expect(stripLocale('/overview')).toBe('/overview');
  });
  it('builds localized paths; en has no prefix', () => {
    expect(localizePath('/login', 'en')).toBe('/login');
    expect(localizePath('/login', 'lv')).toBe('/lv/login');
    expect(localizePath('/', 'es')).toBe('/es');
  });
});
