-- Every change to a high-volume table is told to every instance (docs/decisions/0053):
-- one notification per statement on the channel `store_changes`, once its transaction
-- commits, naming the table and the rows written (and a message's conversation), or no rows
-- when they do not fit in one notification (a bulk copy). The app's own writes name their
-- instance (the transaction's `app.instance` setting), so an instance skips what it wrote;
-- a change made with a database client or a script names none, and every instance reads it.

CREATE FUNCTION store_notify_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
  payload text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('id', r.id, 'conversationId', to_jsonb(r) ->> 'conversationId')))
      INTO changed FROM old_rows r;
  ELSE
    SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('id', r.id, 'conversationId', to_jsonb(r) ->> 'conversationId')))
      INTO changed FROM new_rows r;
  END IF;
  IF changed IS NULL THEN
    RETURN NULL;
  END IF;
  payload := jsonb_build_object('instance', coalesce(current_setting('app.instance', true), ''), 'table', TG_TABLE_NAME, 'rows', changed)::text;
  IF octet_length(payload) >= 7000 THEN
    payload := jsonb_build_object('instance', coalesce(current_setting('app.instance', true), ''), 'table', TG_TABLE_NAME, 'rows', NULL)::text;
  END IF;
  PERFORM pg_notify('store_changes', payload);
  RETURN NULL;
END;
$$;

DO $$
DECLARE
  tab text;
BEGIN
  FOREACH tab IN ARRAY ARRAY['Messages', 'ConversationMembers', 'Marks', 'ReferralEvents', 'SendClaims', 'Reviews', 'Invitations', 'BrokerSignoffs'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_notify_changes()', tab || '_inserted', tab);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_notify_changes()', tab || '_updated', tab);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION store_notify_changes()', tab || '_deleted', tab);
  END LOOP;
END;
$$;
