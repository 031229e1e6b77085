-- An agent invited once they joined through a request's outreach has their own Respond by
-- (docs/decisions/0083); blank on every other invitation, which answers by the request's.
ALTER TABLE "Invitations" ADD COLUMN "respondBy" text COLLATE "C" NOT NULL DEFAULT '';
