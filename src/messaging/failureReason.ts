/**
 * Why one row's update was refused, in the staff member's words: the server's field errors with the
 * column names ("Message: must not be empty"), else its message, else the transport error.
 */
export function failureReason(error: unknown, fieldLabel: (field: string) => string | undefined): string {
  const body = (error as { body?: { message?: unknown; errors?: { path?: unknown; message?: unknown }[] } } | null)?.body;
  if (Array.isArray(body?.errors) && body.errors.length > 0) {
    return body.errors
      .map(({ path, message }) => {
        const field = String(path ?? '').replace(/^body\.?/, '');
        return `${fieldLabel(field) ?? (field || 'Request')}: ${String(message)}`;
      })
      .join('; ');
  }
  if (typeof body?.message === 'string' && body.message) return body.message;
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
