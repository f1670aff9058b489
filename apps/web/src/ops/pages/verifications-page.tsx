import { useQuery } from '@tanstack/react-query';
import { verificationQueueItem } from '@tipcard/shared/ops/schemas';
import { Link } from 'react-router';
import { z } from 'zod';
import { formatTime, opsGet } from '../ops-api.ts';
import { Empty, ErrorNote, Loading, Page, Table } from '../ui.tsx';

export default function VerificationsPage() {
  const queue = useQuery({
    queryKey: ['ops', 'verifications'],
    queryFn: () => opsGet(z.array(verificationQueueItem), '/verifications'),
  });
  return (
    <Page title="Verification review">
      {queue.isPending && <Loading />}
      <ErrorNote error={queue.error} />
      {queue.data && queue.data.length === 0 && <Empty>No request is waiting for review.</Empty>}
      {queue.data && queue.data.length > 0 && (
        <Table
          caption="Pending verification requests, oldest first"
          columns={['Submitted', 'User', 'Kind', '']}
          rows={queue.data.map((item) => ({
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
    </Page>
  );
}
