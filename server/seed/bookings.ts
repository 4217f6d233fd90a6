/**
 * The demo data's reach facts beside the class visits (server/seed/demo.ts): the phone numbers of
 * linked clients and the classes they booked ahead, which the client page shows as upcoming classes.
 */

/** A linked client's phone, from its row number: '(555) 014-0024', in the 555-01xx range set aside for fiction. */
export const demoPhoneSql = (n: string) => `'(555) 01' || (${n} % 10)::text || '-' || lpad((${n} % 10000)::text, 4, '0')`;

/**
 * Classes a third of the linked clients booked for the next two weeks, not attended yet (attendance
 * 'booked'). Visit ids follow each client's past visits (1000000000 + id × 100 + k, k below 90).
 * `h(expr, salt)` is the generator's stable pseudo-random integer; `ts` the data set's moment.
 */
export const bookedClassesSql = (h: (expr: string, salt: number) => string, ts: string) =>
  `WITH names AS (SELECT ARRAY['Power Vinyasa', 'Barre Burn', 'Spin 45', 'Pilates Mat', 'HIIT Express', 'Yin Yoga']::text[] AS n)
   INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, mb_client_id, class_id, class_name, location_id,
                                start_at, end_at, attendance, signed_in, missed, late_cancelled, last_modified_at, imported_at)
   SELECT c.id, c.mb_site_id, 1000000000 + c.id * 100 + 90 + k, c.mb_client_id, 1 + ${h('c.id * 59 + k', 45)} % 6, n[1 + ${h('c.id * 59 + k', 45)} % 6], 1,
          t.start_at, t.start_at + interval '1 hour', 'booked', false, false, false, ${ts}, ${ts}
   FROM clients c CROSS JOIN names
   CROSS JOIN LATERAL generate_series(1, 1 + (${h('c.id', 46)} % 2)::int) AS k
   CROSS JOIN LATERAL (SELECT date_trunc('hour', ${ts} + make_interval(secs => 86400 + ${h('c.id * 59 + k', 47)} % (13 * 86400))) AS start_at) AS t
   WHERE c.mb_site_id IS NOT NULL AND c.id % 3 = 0;`;
