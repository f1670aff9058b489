import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigationType, useOutlet } from 'react-router';

const EXIT_MS = 140;

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}

/**
 * Page transitions in mode out-in: on a route change the old page stays for a short fade-out, then the new page
 * fades in. Holding the previous page element for the exit needs a ref read during render; that is the point of
 * this component, so the rule is switched off for those two lines.
 */
export function AnimatedOutlet({ className }: { className?: string }) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const outlet = useOutlet();
  // The first paint of a page load (and the back button) shows the page at once; in-app navigation fades.
  const animate = navigationType !== 'POP';
  const key = location.pathname;
  const [shownKey, setShownKey] = useState(key);
  const lastElement = useRef<ReactNode>(outlet);
  const leaving = key !== shownKey;

  // eslint-disable-next-line react-hooks/refs
  if (!leaving) lastElement.current = outlet;

  useEffect(() => {
    if (key === shownKey) return;
    const timer = setTimeout(
      () => {
        setShownKey(key);
        window.scrollTo({ top: 0 });
      },
      prefersReducedMotion() ? 0 : EXIT_MS,
    );
    return () => clearTimeout(timer);
  }, [key, shownKey]);

  return (
    <div key={shownKey} className={`${leaving ? 'page-leave' : animate ? 'page-enter' : ''} ${className ?? ''}`}>
      {/* eslint-disable-next-line react-hooks/refs */}
      {leaving ? lastElement.current : outlet}
    </div>
  );
}
