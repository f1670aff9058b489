import { useQuery } from '@tanstack/react-query';
import { verificationQueueItem } from '@tipcard/shared/ops/schemas';
import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { z } from 'zod';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatTime, opsGet } from '../ops-api.ts';
import { loadErrorText, Page, Table } from '../ui.tsx';

export default function VerificationsPage() {
  const queue = useQuery({
    queryKey: ['ops', 'verifications'],
    queryFn: () => opsGet(z.array(verificationQueueItem), '/verifications'),
  });
  return (
    <Page title="Verification review">
      <ListState
        query={queue}
        loadingLabel="Loading verification requests…"
        errorText={loadErrorText(queue.error)}
        empty={{ icon: <ShieldCheck className="size-7" />, title: 'No request is waiting for review.' }}
      >
        {(items) => (
          <Table
            caption="Pending verification requests, oldest first"
            columns={['Submitted', 'User', 'Kind', '']}
            rows={items.map((item) => ({
              key: item.id,
              cells: [
                formatTime(item.created_at),
                item.phone,
                item.kind,
                <Link key="open" to={`/verifications/${item.id}`} className="font-medium text-primary-800 underline">
                  Review
                </Link>,
              ],
            }))}
          />
        )}
      </ListState>
    </Page>
  );
}
