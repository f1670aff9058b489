import { expect, type APIRequestContext } from '@playwright/test';

/** A Latvian mobile number no other test uses. */
export function newPhone(): string {
  return `+3712${String(Date.now()).slice(-3)}${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
}

/** The newest code texted to `phone` once more than `after` texts were sent, read from the dev outbox. */
export async function readCode(request: APIRequestContext, phone: string, after = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(phone)}`);
      const messages = ((await response.json()) as { data: { body: string }[] }).data;
      code = messages.length > after ? /\b(\d{6})\b/.exec(messages[0]!.body)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  return code!;
}
