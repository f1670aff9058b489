import { useEffect, useState } from 'react';

/** Whole seconds left until `until` (epoch ms), ticking every second. */
export function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = () => {
      const current = Date.now();
      setNow(current);
      return current;
    };
    const first = setTimeout(tick, 0);
    const timer = setInterval(() => {
      if (tick() >= until) clearInterval(timer);
    }, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [until]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}
