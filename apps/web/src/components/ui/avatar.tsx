import { cn } from './cn.ts';

function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || 'T';
}

/** A card photo's URL (`image_url`) in the avatar size the API serves: at most 192 px, a small part of the bytes. */
function avatarUrl(imageUrl: string): string {
  return `${imageUrl}${imageUrl.includes('?') ? '&' : '?'}size=avatar`;
}

/**
 * A card's photo, or a placeholder with the initials when there is none. An empty `alt` means decorative (the name is
 * written next to it): the placeholder is then hidden from screen readers, as an `<img alt="">` is.
 */
export function Avatar({
  src,
  name,
  alt,
  className,
}: {
  src: string | null | undefined;
  name: string | null | undefined;
  alt: string;
  className?: string;
}) {
  if (src)
    return (
      <img
        src={avatarUrl(src)}
        alt={alt}
        className={cn('size-16 shrink-0 rounded-2xl object-cover ring-1 ring-slate-200', className)}
      />
    );
  return (
    <div
      {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
      className={cn(
        'grid size-16 shrink-0 place-items-center rounded-2xl bg-gradient-to-br from-primary-700 to-primary-950 text-xl font-bold text-white',
        className,
      )}
    >
      <span aria-hidden="true">{initials(name)}</span>
    </div>
  );
}
