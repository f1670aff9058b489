import type { TicketStatus } from '@tipcard/shared/support/schemas';
import { Badge } from '../ui.tsx';

const TONES = { open: 'amber', waiting_for_user: 'blue', closed: 'slate' } as const;

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return <Badge tone={TONES[status]}>{status.replaceAll('_', ' ')}</Badge>;
}

/** How long since a time, in the largest whole unit: "5 min", "3 h", "2 d". */
export function formatAge(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}
