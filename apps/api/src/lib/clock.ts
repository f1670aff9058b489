/** Time as a dependency, so tests can move it (OTP expiry, token life, resend waits). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
