/**
 * CPU per email render, per template (issue #11, rendering). Not a test: a measurement script.
 *
 *   node --import tsx test/unit/render-profile.ts [--n 300] [--warm 100] [--all]
 *   NODE_ENV=production node --import tsx test/unit/render-profile.ts [--vary]
 *
 * For each template: `warm` renders of its preview data (warm-up, also fills the caches), then `n` renders
 * measured with `process.cpuUsage()` (user + system CPU of this process, so GC is included; wall-clock is not
 * used: the machine is shared). Also counts `new Intl.DateTimeFormat` per render after the warm-up (a Proxy
 * around the global constructor, installed before any module of the project is loaded). `--all` also measures
 * the mean over the identity cases (test/unit/render-cases.ts: 5 locales × 6 zone situations). `--vary` moves
 * every render's instants by one more minute, so no two renders format the same instants (each message about
 * another event: caches of formatting results miss, formatter caches still hit).
 */
export {};

const counter = { constructed: 0 };
const RealDTF = Intl.DateTimeFormat;
Intl.DateTimeFormat = new Proxy(RealDTF, {
  construct(target, args, newTarget) {
    counter.constructed++;
    return Reflect.construct(target, args, newTarget);
  },
  apply(target, thisArg, args) {
    counter.constructed++;
    return Reflect.apply(target, thisArg, args);
  },
});

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const n = arg('n', 300);
const vary = process.argv.includes('--vary');
const warm = arg('warm', 100);

const { templateIds } = await import('@/domain/vocabulary');
const { previewData, renderReminderEmail } = await import('@/emails');
const { renderCases } = await import('./render-cases');
type Data = (typeof previewData)[keyof typeof previewData];

let step = 0;
/** `data`, or with `--vary` its instants moved by a new number of minutes. */
function variant(data: Data): Data {
  if (!vary) return data;
  step++;
  const move = (iso: string | null) => (iso === null ? null : new Date(Date.parse(iso) + step * 60_000).toISOString());
  const out = { ...data, startsAt: move(data.startsAt)!, endsAt: move(data.endsAt), roomOpensAt: move(data.roomOpensAt) };
  if ('previousStartsAt' in data) Object.assign(out, { previousStartsAt: move(data.previousStartsAt), previousEndsAt: move(data.previousEndsAt) });
  return out;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

console.log(`NODE_ENV=${process.env.NODE_ENV ?? '(unset)'} node ${process.version} n=${n} warm=${warm}${vary ? ' vary' : ''}`);
console.log('template            | CPU ms/render | new Intl.DateTimeFormat per render (after warm-up)');
let total = 0;
for (const id of templateIds) {
  const data = previewData[id];
  for (let i = 0; i < warm; i++) await renderReminderEmail(id, variant(data));
  const inputs = Array.from({ length: n }, () => variant(data));
  const before = counter.constructed;
  const t = process.cpuUsage();
  for (const input of inputs) await renderReminderEmail(id, input);
  const ms = cpuMs(t) / n;
  total += ms;
  const per = (counter.constructed - before) / n;
  console.log(`${id.padEnd(19)} | ${ms.toFixed(2).padStart(13)} | ${per.toFixed(1)}`);
}
console.log(`${'mean'.padEnd(19)} | ${(total / templateIds.length).toFixed(2).padStart(13)} |`);

// A fresh (locale, zone) pair: formatters constructed by the FIRST render of a case, then by the second.
{
  const data = { ...previewData['attendee-reminder'], locale: 'nl', eventTimeZone: 'Asia/Tokyo', recipientTimeZone: 'Africa/Lagos' };
  let before = counter.constructed;
  await renderReminderEmail('attendee-reminder', data);
  const first = counter.constructed - before;
  before = counter.constructed;
  await renderReminderEmail('attendee-reminder', data);
  console.log(`attendee-reminder nl Asia/Tokyo→Africa/Lagos: new formatters first render ${first}, second ${counter.constructed - before}`);
}

if (process.argv.includes('--all')) {
  const cases = renderCases();
  for (const c of cases) await renderReminderEmail(c.template, c.data);
  const before = counter.constructed;
  const t = process.cpuUsage();
  const rounds = Math.max(1, Math.round(n / 100));
  for (let r = 0; r < rounds; r++) for (const c of cases) await renderReminderEmail(c.template, c.data);
  const count = rounds * cases.length;
  console.log(
    `all ${cases.length} identity cases × ${rounds}: ${(cpuMs(t) / count).toFixed(2)} CPU ms/render, ` +
      `${((counter.constructed - before) / count).toFixed(1)} new formatters/render`,
  );
}
