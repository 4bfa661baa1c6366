import Link from 'next/link';
import { EmptyState } from '@/components/ui/EmptyState';

/** Shown for unknown routes and for ids that do not exist in the current tenant. */
export default function NotFound() {
  return (
    <EmptyState title="Not found">
      Nothing here — it may belong to another tenant or never have existed. <Link href="/events">Back to events</Link>
    </EmptyState>
  );
}
