-- The high-volume tabs (docs/decisions/0053), one table each, named like the tab, with
-- one text column per header, named like the header: every cell is text, as in the
-- spreadsheet and the SQLite file, and a blank cell is ''. Text compares byte by byte
-- (collation "C"), as the app compares times and ids, whatever the server's locale.
-- "rowNumber" keeps the order rows were added in, as a tab's row order does.
-- The indexes are the tabs' `indexes` (app/domain/workbook), plus the ones a page reads by.
-- Never edit a migration once it has been applied anywhere: add the next one.

CREATE TABLE "Messages" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text COLLATE "C" PRIMARY KEY,
  "conversationId" text COLLATE "C" NOT NULL DEFAULT '',
  "fromEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "toEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "text" text COLLATE "C" NOT NULL DEFAULT '',
  "createdAt" text COLLATE "C" NOT NULL DEFAULT ''
);
-- A thread's messages a page at a time, newest first.
CREATE INDEX "Messages_conversationId" ON "Messages" ("conversationId", "createdAt", "id");
CREATE INDEX "Messages_fromEmail" ON "Messages" ("fromEmail");
-- A member's unread messages: those to them after their read position in each conversation.
CREATE INDEX "Messages_toEmail" ON "Messages" ("toEmail", "conversationId", "createdAt");

CREATE TABLE "ConversationMembers" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text COLLATE "C" PRIMARY KEY,
  "conversationId" text COLLATE "C" NOT NULL DEFAULT '',
  "agentEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "lastReadAt" text COLLATE "C" NOT NULL DEFAULT '',
  "lastNotifiedAt" text COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX "ConversationMembers_conversationId" ON "ConversationMembers" ("conversationId");
CREATE INDEX "ConversationMembers_agentEmail" ON "ConversationMembers" ("agentEmail");

CREATE TABLE "Marks" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text COLLATE "C" PRIMARY KEY,
  "agentEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "requestId" text COLLATE "C" NOT NULL DEFAULT '',
  "kind" text COLLATE "C" NOT NULL DEFAULT '',
  "status" text COLLATE "C" NOT NULL DEFAULT '',
  "createdAt" text COLLATE "C" NOT NULL DEFAULT '',
  "updatedAt" text COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX "Marks_agentEmail" ON "Marks" ("agentEmail");
CREATE INDEX "Marks_requestId" ON "Marks" ("requestId");

CREATE TABLE "ReferralEvents" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text COLLATE "C" PRIMARY KEY,
  "referralId" text COLLATE "C" NOT NULL DEFAULT '',
  "step" text COLLATE "C" NOT NULL DEFAULT '',
  "byEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "note" text COLLATE "C" NOT NULL DEFAULT '',
  "createdAt" text COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX "ReferralEvents_referralId" ON "ReferralEvents" ("referralId");

CREATE TABLE "SendClaims" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text COLLATE "C" PRIMARY KEY,
  "key" text COLLATE "C" NOT NULL DEFAULT '',
  "instance" text COLLATE "C" NOT NULL DEFAULT '',
  "outcome" text COLLATE "C" NOT NULL DEFAULT '',
  "note" text COLLATE "C" NOT NULL DEFAULT '',
  "claimedAt" text COLLATE "C" NOT NULL DEFAULT ''
);
-- The claim itself: one claimed row per key, whichever instance inserts it first. A failed
-- send adds a second row under the key with the outcome `failed`, which this leaves alone.
CREATE UNIQUE INDEX "SendClaims_key_claimed" ON "SendClaims" ("key") WHERE "outcome" = 'claimed';
CREATE INDEX "SendClaims_key" ON "SendClaims" ("key");
-- The tab's `chain` index: the subject of a throttled chain's link, `<subject>` of `<subject>#<link>`.
CREATE INDEX "SendClaims_chain" ON "SendClaims" ((substring("key" FROM '^(.+)#[0-9]+$')));

CREATE TABLE "Reviews" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text COLLATE "C" PRIMARY KEY,
  "referralId" text COLLATE "C" NOT NULL DEFAULT '',
  "reviewerEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "reviewedEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "reviewedSide" text COLLATE "C" NOT NULL DEFAULT '',
  "overall" text COLLATE "C" NOT NULL DEFAULT '',
  "communication" text COLLATE "C" NOT NULL DEFAULT '',
  "clientCare" text COLLATE "C" NOT NULL DEFAULT '',
  "feeAsAgreed" text COLLATE "C" NOT NULL DEFAULT '',
  "referralQuality" text COLLATE "C" NOT NULL DEFAULT '',
  "text" text COLLATE "C" NOT NULL DEFAULT '',
  "submittedAt" text COLLATE "C" NOT NULL DEFAULT '',
  "updatedAt" text COLLATE "C" NOT NULL DEFAULT '',
  "reply" text COLLATE "C" NOT NULL DEFAULT '',
  "repliedAt" text COLLATE "C" NOT NULL DEFAULT '',
  "status" text COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX "Reviews_referralId" ON "Reviews" ("referralId");
CREATE INDEX "Reviews_reviewedEmail" ON "Reviews" ("reviewedEmail");
CREATE INDEX "Reviews_reviewerEmail" ON "Reviews" ("reviewerEmail");

CREATE TABLE "Invitations" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text COLLATE "C" PRIMARY KEY,
  "requestId" text COLLATE "C" NOT NULL DEFAULT '',
  "posterEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "agentEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "status" text COLLATE "C" NOT NULL DEFAULT '',
  "reason" text COLLATE "C" NOT NULL DEFAULT '',
  "createdAt" text COLLATE "C" NOT NULL DEFAULT '',
  "answeredAt" text COLLATE "C" NOT NULL DEFAULT '',
  "remindedAt" text COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX "Invitations_requestId" ON "Invitations" ("requestId");
CREATE INDEX "Invitations_agentEmail" ON "Invitations" ("agentEmail");
CREATE INDEX "Invitations_posterEmail" ON "Invitations" ("posterEmail");

CREATE TABLE "BrokerSignoffs" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text COLLATE "C" PRIMARY KEY,
  "referralId" text COLLATE "C" NOT NULL DEFAULT '',
  "side" text COLLATE "C" NOT NULL DEFAULT '',
  "kind" text COLLATE "C" NOT NULL DEFAULT '',
  "agreementHash" text COLLATE "C" NOT NULL DEFAULT '',
  "brokerName" text COLLATE "C" NOT NULL DEFAULT '',
  "brokerLicense" text COLLATE "C" NOT NULL DEFAULT '',
  "brokerEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "byEmail" text COLLATE "C" NOT NULL DEFAULT '',
  "signedName" text COLLATE "C" NOT NULL DEFAULT '',
  "signedLicense" text COLLATE "C" NOT NULL DEFAULT '',
  "signedIp" text COLLATE "C" NOT NULL DEFAULT '',
  "signedAgent" text COLLATE "C" NOT NULL DEFAULT '',
  "expiresAt" text COLLATE "C" NOT NULL DEFAULT '',
  "createdAt" text COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX "BrokerSignoffs_referralId" ON "BrokerSignoffs" ("referralId");
