import { expect, test } from './fixtures.ts';
import { a11yProblems } from './helpers.ts';

// The cookie policy's wide table scrolls sideways: in every language it must be a focusable, named region.
for (const path of [
  '/#/',
  '/#/login',
  '/#/registration',
  '/#/lv/login',
  '/#/cookies',
  '/#/lv/cookies',
  '/#/fr/cookies',
  '/#/es/cookies',
]) {
  test(`${path} has no serious accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    expect(await a11yProblems(page)).toEqual([]);
  });
}
