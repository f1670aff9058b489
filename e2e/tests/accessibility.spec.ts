import { expect, test } from '@playwright/test';
import { a11yProblems } from './helpers.ts';

for (const path of ['/#/', '/#/login', '/#/registration', '/#/lv/login']) {
  test(`${path} has no serious accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    expect(await a11yProblems(page)).toEqual([]);
  });
}
