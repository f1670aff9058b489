import type { SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../../lib/site-info.ts';
import { cn } from './cn.ts';

/** Brand marks drawn in the same stroke style as the lucide icons (lucide ships no brand icons). */
type IconProps = SVGProps<SVGSVGElement>;

const base = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

export function InstagramIcon(props: IconProps) {
  return (
    <svg {...base} {...props}>
      <rect width="20" height="20" x="2" y="2" rx="5" />
      <path d="M16 11.37A4 4 0 1 1 12.63 8 4 4 0 0 1 16 11.37z" />
      <path d="M17.5 6.5h.01" />
    </svg>
  );
}

export function FacebookIcon(props: IconProps) {
  return (
    <svg {...base} {...props}>
      <path d="M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z" />
    </svg>
  );
}

export function TikTokIcon(props: IconProps) {
  return (
    <svg {...base} {...props}>
      <path d="M21 7.92v4.03a9.95 9.95 0 0 1-5-1.95v4.5a6.5 6.5 0 1 1-8-6.33v4.33a2.5 2.5 0 1 0 4 2V3h4.08A6 6 0 0 0 21 7.92z" />
    </svg>
  );
}

/** Social profiles as configured; nothing when none is set. */
export function SocialLinks({ className, tone }: { className?: string; tone: 'dark' | 'light' }) {
  const { t } = useTranslation();
  const social = useSiteInfo()?.social;
  const links = [
    { url: social?.instagram, label: t('social.instagram'), Icon: InstagramIcon },
    { url: social?.facebook, label: t('social.facebook'), Icon: FacebookIcon },
    { url: social?.tiktok, label: t('social.tiktok'), Icon: TikTokIcon },
  ].filter((link): link is typeof link & { url: string } => Boolean(link.url));
  if (links.length === 0) return null;
  return (
    <ul aria-label={t('social.label')} className={cn('flex items-center gap-1', className)}>
      {links.map(({ url, label, Icon }) => (
        <li key={label}>
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            className={cn(
              'grid size-9 place-items-center rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
              tone === 'dark'
                ? 'text-white/80 hover:bg-white/10 hover:text-white'
                : 'text-slate-600 hover:bg-slate-100 hover:text-primary-900',
            )}
          >
            <Icon className="size-[18px]" aria-hidden="true" />
            <span className="sr-only">{label}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
