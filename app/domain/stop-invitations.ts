/** The page that puts an invited address on the suppression list (docs/decisions/0084). */
export const STOP_INVITING_PATH = "/stop-invitations";
