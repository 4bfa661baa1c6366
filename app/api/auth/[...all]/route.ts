import { toNextJsHandler } from 'better-auth/next-js';
import { getAuth } from '../../../../server/auth';

export const dynamic = 'force-dynamic';

/** better-auth's endpoints (`/api/auth/sign-in/email`, `/api/auth/sign-out`, `/api/auth/get-session`, …). */
export async function GET(request: Request) {
  return toNextJsHandler(getAuth()).GET(request);
}

export async function POST(request: Request) {
  return toNextJsHandler(getAuth()).POST(request);
}
