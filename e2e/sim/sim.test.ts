import { describe, expect, it } from 'vitest';
import { mulberry32 } from './prng.ts';
import { shrink } from './shrink.ts';

describe('mulberry32', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const draw = (seed: number) => {
      const prng = mulberry32(seed);
      return Array.from({ length: 50 }, () => [prng.int(0, 1_000), prng.weighted({ a: 1, b: 5, c: 0.5 }), prng.chance(0.3)]);
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('stays within bounds and draws by weight', () => {
    const prng = mulberry32(1);
    const counts = { rare: 0, common: 0, never: 0 };
    for (let i = 0; i < 10_000; i += 1) {
      const value = prng.int(3, 5);
      expect(value).toBeGreaterThanOrEqual(3);
      expect(value).toBeLessThanOrEqual(5);
      counts[prng.weighted({ rare: 1, common: 9, never: 0 })] += 1;
    }
    expect(counts.never).toBe(0);
    expect(counts.common).toBeGreaterThan(counts.rare * 6);
  });
});

describe('shrink', () => {
  it('keeps only the actions a failure needs, in their order', async () => {
    // A toy system that fails once a "deposit" is followed later by two "refund"s of it.
    const fails = async (actions: string[]) => {
      const deposit = actions.indexOf('deposit');
      return deposit >= 0 && actions.slice(deposit).filter((action) => action === 'refund').length >= 2;
    };
    const prng = mulberry32(42);
    const noise = ['tip', 'join', 'leave', 'payout'];
    const actions = [
      ...Array.from({ length: 40 }, () => prng.pick(noise)),
      'deposit',
      ...Array.from({ length: 30 }, () => prng.pick(noise)),
      'refund',
      'tip',
      'refund',
      'join',
    ];
    expect(await fails(actions)).toBe(true);
    const result = await shrink(actions, fails);
    expect(result.actions).toEqual(['deposit', 'refund', 'refund']);
    expect(result.complete).toBe(true);
  });

  it('answers the best list so far when the deadline has passed', async () => {
    const actions = Array.from({ length: 100 }, (_, i) => i);
    const result = await shrink(actions, async (candidate) => candidate.includes(99), Date.now() - 1);
    expect(result.actions).toEqual(actions);
    expect(result.complete).toBe(false);
    expect(result.replays).toBe(0);
  });
});
