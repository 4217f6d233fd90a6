import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_EXPORT_MAX_ROWS, AuditEntry, AuditExportQuery, AuditListQuery, StaffMember } from '@contract/audit';
import { errorResponses } from '@contract/common';
import { contentRange, IdParams } from '@contract/raSimpleRest';
import { exportAuditCsv, listAudit, requireAuditEntry } from '../audit/list';
import { listStaffUsers } from '../staff/queries';

const ADMIN = '/api/admin/v1';
const tags = ['audit log (extension)'];

/** The Audit Log screen and the client page's History (ra-data-simple-rest dialect). */
const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${ADMIN}/audit`,
    {
      config: { permission: 'audit.read' },
      schema: {
        tags,
        summary: 'Staff actions, newest first by default, filtered by staff member, action, client and date range',
        description: 'filter {"staff_email":"a@b.c","action":"video.update","client_id":12,"from":"2026-11-01","to":"2026-11-22"}; total in Content-Range.',
        querystring: AuditListQuery,
        response: { 200: z.array(AuditEntry), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { sort = ['at', 'DESC'], filter = {} } = request.query;
      const range = request.query.range ?? [0, filter.id?.length ? filter.id.length - 1 : 24];
      const { rows, total } = await listAudit(app.database, { sort, range, filter });
      reply.header('cache-control', 'no-store');
      reply.header('content-range', contentRange('audit', range[0], rows.length, total));
      return rows;
    },
  );

  app.get(
    `${ADMIN}/audit/export`,
    {
      config: { permission: 'audit.read' },
      schema: {
        tags,
        summary: `The filtered log as CSV, newest first (at most ${AUDIT_EXPORT_MAX_ROWS.toLocaleString('en-US')} rows)`,
        querystring: AuditExportQuery,
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const csv = await exportAuditCsv(app.database, request.query.filter ?? {}, AUDIT_EXPORT_MAX_ROWS);
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="audit-log-${app.clock.now().toISOString().slice(0, 10)}.csv"`);
      return reply.type('text/csv; charset=utf-8').send(csv);
    },
  );

  app.get(
    `${ADMIN}/audit/:id`,
    { config: { permission: 'audit.read' }, schema: { tags, summary: 'One audit entry', params: IdParams, response: { 200: AuditEntry, ...errorResponses } } },
    async (request) => requireAuditEntry(app.database, request.params.id),
  );

  app.get(
    // Not /staff: that is the staff screen's resource, for owners; the Audit Log's readers need only names.
    `${ADMIN}/audit-staff`,
    {
      config: { permission: 'audit.read' },
      schema: { tags, summary: 'Staff accounts, for the Audit Log’s staff filter', response: { 200: z.array(StaffMember), ...errorResponses } },
    },
    async (_request, reply) => {
      const rows = (await listStaffUsers(app.database)).map(({ id, email, nickname }) => ({ id, email, nickname }));
      reply.header('content-range', contentRange('audit-staff', 0, rows.length, rows.length));
      return rows;
    },
  );
};

export default auditRoutes;
