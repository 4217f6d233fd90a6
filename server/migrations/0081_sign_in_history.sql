-- An account's sign-in history reads its sign-ins and failed attempts from the audit log, newest first.
CREATE INDEX audit_log_sign_ins ON audit_log (target_id, at DESC)
  WHERE target_type = 'staff_user' AND action IN ('auth.sign_in', 'auth.sign_in_failed');
