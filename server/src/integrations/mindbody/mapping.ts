// Mindbody Public API v6 answers in PascalCase (Mindbody's v6 documentation); these pure functions turn one
// record of an answer into our snake_case fields. Both the live client and the sandbox use them.
import { localToInstant } from '../../lib/localTime';

type Raw = Record<string, unknown>;

/** A client of GET /client/clients, as we store it. */
export interface MindbodyClientRecord {
  /** Client.Id: the business-facing id (RssId) other calls take as request.clientId. */
  mb_client_id: string;
  unique_id: number | null;
  first_name: string | null;
  last_name: string | null;
  email_address: string | null;
  client_status: string | null;
  last_modified_at: string | null;
  /** Client.MobilePhone, else HomePhone, else WorkPhone, as written; absent or null: none. */
  phone?: string | null;
}

export type Attendance = 'signed_in' | 'missed' | 'late_cancelled' | 'booked';

/** A visit of GET /client/clientvisits. */
export interface MindbodyVisitRecord {
  mb_visit_id: number;
  mb_client_id: string | null;
  class_id: number | null;
  class_name: string | null;
  location_id: number | null;
  staff_id: number | null;
  start_at: string | null;
  end_at: string | null;
  attendance: Attendance;
  signed_in: boolean;
  missed: boolean;
  late_cancelled: boolean;
  make_up: boolean;
  web_signup: boolean;
  appointment_status: string | null;
  last_modified_at: string | null;
}

/** One entry of ClientContract.UpcomingAutopayEvents, PascalCase kept as the console shows it. */
export interface MindbodyAutopayEvent {
  ClientContractId: number | null;
  ChargeAmount: number;
  Subtotal: number | null;
  Tax: number | null;
  PaymentMethod: string | null;
  ScheduleDate: string;
  ProductId: number | null;
}

/** A ClientContract of GET /client/clientcontracts in the spec's contract fields. */
export interface MindbodyContractRecord {
  /** ClientContract.Id: this sale of the contract. */
  id: number;
  /** ContractID (capital "ID"): the contract template. */
  contract_id: number | null;
  site_id: number | null;
  agreement_date: string | null;
  autopay_status: string | null;
  contract_name: string | null;
  start_date: string | null;
  end_date: string | null;
  termination_date: string | null;
  /** OriginationLocationId. */
  original_location_id: number | null;
  upcoming_autopay_events: MindbodyAutopayEvent[];
}

const OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?$/;

/**
 * Mindbody sends instants with an offset ("…Z") and site-local times without one
 * ("2020-05-06T00:00:00", docs/integrations.md "Times"). Offset-less values are read in the site's time
 * zone (`timeZone`); with the default UTC their calendar date survives as written, which is what
 * day-only fields want (the console shows their first 10 characters). .NET's empty DateTime
 * (year 1) means "no date".
 */
export function parseMindbodyDate(value: unknown, timeZone = 'UTC'): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  let date: Date;
  if (OFFSET.test(text)) {
    date = new Date(text);
  } else {
    const match = LOCAL.exec(text);
    if (!match) return null;
    const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '0'] = match;
    // Date.UTC reads years 0-99 as 1900-1999, so the empty DateTime must be caught before it.
    if (Number(y) < 1900) return null;
    const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
    date =
      timeZone === 'UTC'
        ? new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms))
        : new Date(localToInstant(Number(y), Number(mo), Number(d), Number(h), Number(mi), timeZone).getTime() + Number(s) * 1000 + ms);
  }
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1900) return null;
  return date.toISOString();
}

// PostgreSQL text cannot hold NUL and one such value would fail the whole page; the other control
// characters are never meant in a name or an e-mail either.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

const text = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(CONTROL, '').trim();
  return trimmed === '' ? null : trimmed;
};

const integer = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
};

const money = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
};

const flag = (value: unknown) => value === true || value === 'true';

/** Null when the record has no Id: such a client cannot be matched again and is skipped. */
export function mapClient(raw: Raw, timeZone = 'UTC'): MindbodyClientRecord | null {
  const id = text(raw.Id);
  if (!id) return null;
  const status = text(raw.Status) ?? (typeof raw.Active === 'boolean' ? (raw.Active ? 'Active' : 'Inactive') : null);
  const email = text(raw.Email);
  return {
    mb_client_id: id,
    unique_id: integer(raw.UniqueId),
    first_name: text(raw.FirstName),
    last_name: text(raw.LastName),
    email_address: email && email.includes('@') ? email : null,
    client_status: status,
    last_modified_at: parseMindbodyDate(raw.LastModifiedDateTime, timeZone),
    phone: text(raw.MobilePhone) ?? text(raw.HomePhone) ?? text(raw.WorkPhone),
  };
}

/** Late-cancelled and missed outrank signed-in; a visit with none of them is still booked. */
export function attendanceOf(visit: Pick<MindbodyVisitRecord, 'signed_in' | 'missed' | 'late_cancelled' | 'appointment_status'>): Attendance {
  if (visit.late_cancelled || visit.appointment_status === 'LateCancelled') return 'late_cancelled';
  if (visit.missed || visit.appointment_status === 'NoShow') return 'missed';
  if (visit.signed_in || visit.appointment_status === 'Arrived' || visit.appointment_status === 'Completed') return 'signed_in';
  return 'booked';
}

/** Null for a visit without an Id (nothing to deduplicate it by). Offset-less times are the site's (`timeZone`). */
export function mapVisit(raw: Raw, timeZone = 'UTC'): MindbodyVisitRecord | null {
  const id = integer(raw.Id);
  if (id === null || id <= 0) return null;
  const visit = {
    mb_visit_id: id,
    mb_client_id: text(raw.ClientId),
    class_id: integer(raw.ClassId),
    class_name: text(raw.Name),
    location_id: integer(raw.LocationId),
    staff_id: integer(raw.StaffId),
    start_at: parseMindbodyDate(raw.StartDateTime, timeZone),
    end_at: parseMindbodyDate(raw.EndDateTime, timeZone),
    signed_in: flag(raw.SignedIn),
    missed: flag(raw.Missed),
    late_cancelled: flag(raw.LateCancelled),
    make_up: flag(raw.MakeUp),
    web_signup: flag(raw.WebSignup),
    appointment_status: text(raw.AppointmentStatus),
    last_modified_at: parseMindbodyDate(raw.LastModifiedDateTime, timeZone),
  };
  return { ...visit, attendance: attendanceOf(visit) };
}

function mapAutopayEvent(raw: unknown): MindbodyAutopayEvent | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const event = raw as Raw;
  const chargeAmount = money(event.ChargeAmount);
  const scheduleDate = parseMindbodyDate(event.ScheduleDate);
  if (chargeAmount === null || scheduleDate === null) return null;
  return {
    ClientContractId: integer(event.ClientContractId),
    ChargeAmount: chargeAmount,
    Subtotal: money(event.Subtotal),
    Tax: money(event.Tax),
    PaymentMethod: text(event.PaymentMethod),
    ScheduleDate: scheduleDate,
    ProductId: integer(event.ProductId),
  };
}

/**
 * Null for a contract without an Id. Autopay events come back sorted by date. Contract dates are
 * days (agreement, start, end, charge dates at midnight): they keep the calendar date Mindbody
 * wrote rather than being moved to the site's time zone, which would show the day before east of UTC.
 */
export function mapContract(raw: Raw): MindbodyContractRecord | null {
  const id = integer(raw.Id);
  if (id === null) return null;
  const events = Array.isArray(raw.UpcomingAutopayEvents) ? raw.UpcomingAutopayEvents : [];
  return {
    id,
    contract_id: integer(raw.ContractID),
    site_id: integer(raw.SiteId),
    agreement_date: parseMindbodyDate(raw.AgreementDate),
    autopay_status: text(raw.AutopayStatus),
    contract_name: text(raw.ContractName),
    start_date: parseMindbodyDate(raw.StartDate),
    end_date: parseMindbodyDate(raw.EndDate),
    termination_date: parseMindbodyDate(raw.TerminationDate),
    original_location_id: integer(raw.OriginationLocationId),
    upcoming_autopay_events: events
      .map(mapAutopayEvent)
      .filter((event): event is MindbodyAutopayEvent => event !== null)
      .sort((a, b) => a.ScheduleDate.localeCompare(b.ScheduleDate)),
  };
}
