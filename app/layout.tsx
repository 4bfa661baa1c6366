import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';
import { Providers } from './providers';

export const metadata: Metadata = {
  title: { default: 'Punctual', template: '%s · Punctual' },
  description: 'Events, bookings and the reminders that go with them.',
  // Inline icon: no static asset to ship, and no 404 for /favicon.ico in every page load.
  icons: {
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%232f5bd3'/%3E%3Cpath d='M8 4v4l3 2' stroke='white' stroke-width='1.6' fill='none' stroke-linecap='round'/%3E%3C/svg%3E",
  },
};

/**
 * Document shell; the staff navigation lives in app/(staff)/layout.tsx, the sign-in page has none. Rendered per
 * request (`connection()`), the not-found page included: Next puts the request's CSP nonce on its scripts only
 * when it renders them, and a page prerendered at build time would have scripts the CSP blocks (proxy.ts).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
