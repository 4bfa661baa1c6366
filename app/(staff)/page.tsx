import { redirect } from 'next/navigation';

/** The home page is the events list. */
export default function HomePage() {
  redirect('/events');
}
