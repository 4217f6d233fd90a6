import type { Clock } from '../../types';
import { createMindbodyApi, type MindbodyApi, type MindbodyTransport, type Query } from './api';
import { MindbodyError } from './errors';

/** Mindbody's own sandbox site id; the embedded default imports this fake site. */
export const SANDBOX_SITE_ID = -99;
export const SANDBOX_CLIENT_COUNT = 320;
// Far above the demo seed's MindBody ids (100001…1100000 at a million clients), so they never collide.
const CLIENT_ID_BASE = 5_000_000;
const DAY = 86_400_000;

const FIRST = ['Maya', 'Jonah', 'Priya', 'Felix', 'Amara', 'Tomas', 'Keiko', 'Rafael', 'Ines', 'Darius', 'Leila', 'Bruno', 'Saoirse', 'Malik', 'Yara', 'Anton'];
const LAST = ['Okoye', 'Lindqvist', 'Haddad', 'Moreau', 'Tanaka', 'Castellanos', 'Novak', 'Adeyemi', 'Brennan', 'Kowalski', 'Farah', 'Ivanova'];
const STATUSES = ['Active', 'Active', 'Active', 'Active', 'Active', 'Non-Member', 'Expired', 'Suspended', 'Terminated'];
const CLASSES = ['Vinyasa Flow', 'Power HIIT', 'Barre Burn', 'Spin 45', 'Pilates Mat', 'Strength Lab', 'Yin & Restore', 'Boxing Basics'];
const CONTRACTS = ['Unlimited Monthly', '10 Class Pack', 'Annual Membership', 'Intro Month', 'Student Monthly'];

/** A stable pseudo-random number in [0, 1) for the given seeds. */
function unit(...seeds: number[]): number {
  let h = 2166136261;
  for (const seed of seeds) {
    h ^= seed | 0;
    h = Math.imul(h, 16777619);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return (h >>> 0) / 4294967296;
}

const pick = <T>(list: readonly T[], ...seeds: number[]) => list[Math.floor(unit(...seeds) * list.length)]!;
const hashText = (value: string) => [...value].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619), 2166136261);
/** Mindbody writes site-local times without an offset. */
const localTime = (ms: number) => new Date(ms).toISOString().slice(0, 19);

interface SandboxClient {
  n: number;
  raw: Record<string, unknown>;
  modifiedAt: number;
}

function sandboxClients(siteId: number, dayStart: number): SandboxClient[] {
  if (siteId !== SANDBOX_SITE_ID) return [];
  return Array.from({ length: SANDBOX_CLIENT_COUNT }, (_, i) => {
    const n = i + 1;
    const first = pick(FIRST, n, 1);
    const last = pick(LAST, n, 2);
    // A few clients change every day, so incremental runs find something.
    const modifiedAt = dayStart - Math.floor(unit(n, 3) * 120) * DAY + (n % 12) * 3_600_000;
    const id = String(CLIENT_ID_BASE + n);
    return {
      n,
      modifiedAt,
      raw: {
        Id: id,
        UniqueId: 9_000_000 + n,
        FirstName: first,
        LastName: last,
        Email: n % 25 === 0 ? null : `${first}.${last}.${n}@sandbox.mindbody.test`.toLowerCase(),
        // 555-01xx: the numbers set aside for fiction.
        MobilePhone: n % 7 === 0 ? null : `(555) 01${n % 10}-${String(n).padStart(4, '0')}`,
        HomePhone: n % 7 === 0 && n % 2 === 0 ? `555-01${n % 10}-${String(n).padStart(4, '0')}` : null,
        WorkPhone: null,
        Status: pick(STATUSES, n, 4),
        Active: n % 9 !== 0,
        CreationDate: localTime(dayStart - (200 + (n % 400)) * DAY),
        LastModifiedDateTime: localTime(modifiedAt),
        HomeLocation: { Id: 1 + (n % 3), Name: `Studio ${1 + (n % 3)}` },
        SuspensionInfo: { BookingSuspended: false, SuspensionStartDate: null, SuspensionEndDate: null },
      },
    };
  });
}

/** One Visit of GET /client/clientvisits, as Mindbody writes it; `seed` and `salts` pick its class, staff member and name. */
function sandboxVisit(
  n: number,
  clientId: string,
  visit: { id: number; seed: number[]; salts: [number, number, number]; start: number; modified: number },
  flags: { SignedIn: boolean; Missed: boolean; LateCancelled: boolean; WebSignup: boolean },
): Record<string, unknown> {
  const [classSalt, staffSalt, nameSalt] = visit.salts;
  return {
    Id: visit.id,
    ClassId: 7000 + Math.floor(unit(...visit.seed, classSalt) * 400),
    ClientId: clientId,
    ClientUniqueId: 9_000_000 + n,
    SiteId: SANDBOX_SITE_ID,
    LocationId: 1 + (n % 3),
    StaffId: 100 + Math.floor(unit(...visit.seed, staffSalt) * 12),
    Name: pick(CLASSES, ...visit.seed, nameSalt),
    StartDateTime: localTime(visit.start),
    EndDateTime: localTime(visit.start + 3_600_000),
    LastModifiedDateTime: localTime(visit.modified),
    ...flags,
    MakeUp: false,
    AppointmentStatus: 'None',
    Action: 'None',
  };
}

function sandboxVisits(siteId: number, clientId: string, dayStart: number): Record<string, unknown>[] {
  const n = Number(clientId) - CLIENT_ID_BASE;
  if (siteId !== SANDBOX_SITE_ID || !Number.isInteger(n) || n < 1 || n > SANDBOX_CLIENT_COUNT) return [];
  const past = Array.from({ length: Math.floor(unit(n, 5) * 9) }, (_, k) => {
    const start = dayStart - Math.floor(unit(n, k, 6) * 60) * DAY + (6 + Math.floor(unit(n, k, 7) * 13)) * 3_600_000;
    const roll = unit(n, k, 8);
    const lateCancelled = roll >= 0.9;
    const missed = roll >= 0.78 && !lateCancelled;
    return sandboxVisit(
      n,
      clientId,
      { id: n * 100 + k + 1, seed: [n, k], salts: [9, 10, 11], start, modified: start },
      { SignedIn: !missed && !lateCancelled, Missed: missed, LateCancelled: lateCancelled, WebSignup: unit(n, k, 12) < 0.6 },
    );
  });
  // Classes booked ahead (clientvisits lists them when request.endDate is in the future): not attended yet.
  const booked = Array.from({ length: Math.floor(unit(n, 13) * 3) }, (_, j) => {
    const start = dayStart + (1 + Math.floor(unit(n, j, 14) * 13)) * DAY + (6 + Math.floor(unit(n, j, 15) * 13)) * 3_600_000;
    return sandboxVisit(
      n,
      clientId,
      { id: n * 100 + 90 + j, seed: [n, j], salts: [16, 17, 18], start, modified: dayStart - DAY },
      { SignedIn: false, Missed: false, LateCancelled: false, WebSignup: true },
    );
  });
  return [...past, ...booked];
}

/** Any client id gets contracts (derived from the id), so contract sync works on the demo data too. */
function sandboxContracts(siteId: number, clientId: string, dayStart: number): Record<string, unknown>[] {
  const seed = hashText(`${siteId}:${clientId}`);
  // One to three each: a sync on any demo client shows something to look at.
  const count = 1 + Math.floor(unit(seed, 1) * 3);
  return Array.from({ length: count }, (_, k) => {
    const start = dayStart - Math.floor(30 + unit(seed, k, 2) * 500) * DAY;
    const end = start + 365 * DAY;
    const id = 40_000 + Math.floor(unit(seed, k, 3) * 900_000);
    const amount = pick([59, 89, 99, 129, 149], seed, k, 4);
    const terminated = unit(seed, k, 5) < 0.15;
    const month = new Date(dayStart);
    return {
      PayerClientId: Number(clientId) || 0,
      AgreementDate: new Date(start).toISOString(),
      AutopayStatus: terminated ? 'Inactive' : pick(['Active', 'Active', 'Suspended'], seed, k, 6),
      AutoRenewing: !terminated,
      FirstAutoPay: 0,
      LastAutoPay: 0,
      NormalAutoPay: 0,
      IsMonthToMonth: true,
      ContractText: '',
      ContractAutoRenewed: false,
      ContractName: pick(CONTRACTS, seed, k, 7),
      EndDate: localTime(end),
      Id: id,
      OriginationLocationId: 1 + Math.floor(unit(seed, k, 8) * 3),
      StartDate: localTime(start),
      SiteId: siteId,
      ContractID: 100 + Math.floor(unit(seed, k, 9) * 6),
      TerminationDate: terminated ? localTime(dayStart - Math.floor(unit(seed, k, 10) * 20) * DAY) : null,
      UpcomingAutopayEvents: terminated
        ? []
        : [1, 2, 3, 4].map((m) => ({
            ClientContractId: id,
            ChargeAmount: amount,
            Subtotal: amount,
            Tax: 0,
            PaymentMethod: 'CreditCard',
            ScheduleDate: localTime(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + m, 1)),
            ProductId: 500 + k,
          })),
    };
  });
}

function page(items: Record<string, unknown>[], query: Query, key: string) {
  const limit = Math.min(Number(query['request.limit'] ?? 100), 200);
  const offset = Number(query['request.offset'] ?? 0);
  const slice = items.slice(offset, offset + limit);
  return { PaginationResponse: { RequestedLimit: limit, RequestedOffset: offset, PageSize: slice.length, TotalResults: items.length }, [key]: slice };
}

const asTime = (value: Query[string]) => (value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN);

/** A fake Mindbody site answering the three GETs the way the API does (PascalCase, paged). */
export function createSandboxTransport(clock: Clock): MindbodyTransport {
  const dayStart = () => {
    const now = clock.now();
    return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  };
  return {
    async get(siteId, path, query, _signal, meter) {
      // The sandbox counts as Mindbody's own sandbox site would (it is capped per day too).
      meter?.spend();
      const today = dayStart();
      if (path === '/client/clients') {
        const since = asTime(query['request.lastModifiedDate']);
        const clients = sandboxClients(siteId, today).filter((client) => Number.isNaN(since) || client.modifiedAt >= since);
        return page(
          clients.map((client) => client.raw),
          query,
          'Clients',
        );
      }
      const clientId = String(query['request.clientId'] ?? '');
      if (!clientId)
        throw new MindbodyError('Mindbody refused the call (400 MissingRequiredFields): ClientId is required', 'request', 400, 'MissingRequiredFields');
      if (path === '/client/clientvisits') {
        const from = asTime(query['request.startDate']);
        const to = asTime(query['request.endDate']);
        const visits = sandboxVisits(siteId, clientId, today).filter((visit) => {
          const start = Date.parse(`${visit.StartDateTime as string}Z`);
          return (Number.isNaN(from) || start >= from) && (Number.isNaN(to) || start <= to);
        });
        return page(visits, query, 'Visits');
      }
      if (path === '/client/clientcontracts') return page(sandboxContracts(siteId, clientId, today), query, 'Contracts');
      throw new MindbodyError(`The Mindbody sandbox does not serve ${path}`, 'request', 404);
    },
  };
}

/** The embedded default: one fake site of a few hundred clients with visits and contracts. */
export function createMindbodySandbox(clock: Clock, timeZoneOf?: (siteId: number) => string): MindbodyApi {
  return createMindbodyApi(createSandboxTransport(clock), { mode: 'sandbox', siteIds: [SANDBOX_SITE_ID], timeZoneOf });
}
