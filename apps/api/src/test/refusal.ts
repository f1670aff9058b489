/** What a fake of an outside service refuses, with the status the real service answers it with. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** Keeps why a request was refused for the test to read, and answers the status to send (400 for anything unplanned). */
export function recordRefusal(error: unknown, refused: { status: number; reason: string }[]): number {
  const status = error instanceof Refusal ? error.status : 400;
  refused.push({ status, reason: error instanceof Error ? error.message : String(error) });
  return status;
}
