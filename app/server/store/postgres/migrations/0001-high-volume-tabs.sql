-- The high-volume tabs (docs/decisions/0053), one table each, named like the tab, with
-- one text column per header, named like the header: every cell is text, as in the
-- spreadsheet and the SQLite file, and a blank cell is ''. "rowNumber" keeps the order
-- rows were added in, which the tabs' readers rely on ("the first row of a key wins").
-- The indexes are the tabs' `indexes` (app/domain/workbook), plus the ones a page reads by.
-- Never edit a migration once it has been applied anywhere: add the next one.

CREATE TABLE "Messages" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text PRIMARY KEY,
  "conversationId" text NOT NULL DEFAULT '',
  "fromEmail" text NOT NULL DEFAULT '',
  "toEmail" text NOT NULL DEFAULT '',
  "text" text NOT NULL DEFAULT '',
  "createdAt" text NOT NULL DEFAULT ''
);
-- A thread's messages a page at a time, newest first.
CREATE INDEX "Messages_conversationId" ON "Messages" ("conversationId", "createdAt", "id");
CREATE INDEX "Messages_fromEmail" ON "Messages" ("fromEmail");
-- A member's unread messages: those to them after their read position in each conversation.
CREATE INDEX "Messages_toEmail" ON "Messages" ("toEmail", "conversationId", "createdAt");

CREATE TABLE "ConversationMembers" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text PRIMARY KEY,
  "conversationId" text NOT NULL DEFAULT '',
  "agentEmail" text NOT NULL DEFAULT '',
  "lastReadAt" text NOT NULL DEFAULT '',
  "lastNotifiedAt" text NOT NULL DEFAULT ''
);
CREATE INDEX "ConversationMembers_conversationId" ON "ConversationMembers" ("conversationId");
CREATE INDEX "ConversationMembers_agentEmail" ON "ConversationMembers" ("agentEmail");

CREATE TABLE "Marks" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text PRIMARY KEY,
  "agentEmail" text NOT NULL DEFAULT '',
  "requestId" text NOT NULL DEFAULT '',
  "kind" text NOT NULL DEFAULT '',
  "status" text NOT NULL DEFAULT '',
  "createdAt" text NOT NULL DEFAULT '',
  "updatedAt" text NOT NULL DEFAULT ''
);
CREATE INDEX "Marks_agentEmail" ON "Marks" ("agentEmail");
CREATE INDEX "Marks_requestId" ON "Marks" ("requestId");

CREATE TABLE "ReferralEvents" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text PRIMARY KEY,
  "referralId" text NOT NULL DEFAULT '',
  "step" text NOT NULL DEFAULT '',
  "byEmail" text NOT NULL DEFAULT '',
  "note" text NOT NULL DEFAULT '',
  "createdAt" text NOT NULL DEFAULT ''
);
CREATE INDEX "ReferralEvents_referralId" ON "ReferralEvents" ("referralId");

CREATE TABLE "SendClaims" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text PRIMARY KEY,
  "key" text NOT NULL DEFAULT '',
  "instance" text NOT NULL DEFAULT '',
  "outcome" text NOT NULL DEFAULT '',
  "note" text NOT NULL DEFAULT '',
  "claimedAt" text NOT NULL DEFAULT ''
);
-- The claim itself: one claimed row per key, whichever instance inserts it first. A failed
-- send adds a second row under the key with the outcome `failed`, which this leaves alone.
CREATE UNIQUE INDEX "SendClaims_key_claimed" ON "SendClaims" ("key") WHERE "outcome" = 'claimed';
CREATE INDEX "SendClaims_key" ON "SendClaims" ("key");
-- The tab's `chain` index: the subject of a throttled chain's link, `<subject>` of `<subject>#<link>`.
CREATE INDEX "SendClaims_chain" ON "SendClaims" ((substring("key" FROM '^(.+)#[0-9]+$')));

CREATE TABLE "Reviews" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text PRIMARY KEY,
  "referralId" text NOT NULL DEFAULT '',
  "reviewerEmail" text NOT NULL DEFAULT '',
  "reviewedEmail" text NOT NULL DEFAULT '',
  "reviewedSide" text NOT NULL DEFAULT '',
  "overall" text NOT NULL DEFAULT '',
  "communication" text NOT NULL DEFAULT '',
  "clientCare" text NOT NULL DEFAULT '',
  "feeAsAgreed" text NOT NULL DEFAULT '',
  "referralQuality" text NOT NULL DEFAULT '',
  "text" text NOT NULL DEFAULT '',
  "submittedAt" text NOT NULL DEFAULT '',
  "updatedAt" text NOT NULL DEFAULT '',
  "reply" text NOT NULL DEFAULT '',
  "repliedAt" text NOT NULL DEFAULT '',
  "status" text NOT NULL DEFAULT ''
);
CREATE INDEX "Reviews_referralId" ON "Reviews" ("referralId");
CREATE INDEX "Reviews_reviewedEmail" ON "Reviews" ("reviewedEmail");
CREATE INDEX "Reviews_reviewerEmail" ON "Reviews" ("reviewerEmail");

CREATE TABLE "Invitations" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text PRIMARY KEY,
  "requestId" text NOT NULL DEFAULT '',
  "posterEmail" text NOT NULL DEFAULT '',
  "agentEmail" text NOT NULL DEFAULT '',
  "status" text NOT NULL DEFAULT '',
  "reason" text NOT NULL DEFAULT '',
  "createdAt" text NOT NULL DEFAULT '',
  "answeredAt" text NOT NULL DEFAULT '',
  "remindedAt" text NOT NULL DEFAULT ''
);
CREATE INDEX "Invitations_requestId" ON "Invitations" ("requestId");
CREATE INDEX "Invitations_agentEmail" ON "Invitations" ("agentEmail");
CREATE INDEX "Invitations_posterEmail" ON "Invitations" ("posterEmail");

CREATE TABLE "BrokerSignoffs" (
  "rowNumber" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  "id" text PRIMARY KEY,
  "referralId" text NOT NULL DEFAULT '',
  "side" text NOT NULL DEFAULT '',
  "kind" text NOT NULL DEFAULT '',
  "agreementHash" text NOT NULL DEFAULT '',
  "brokerName" text NOT NULL DEFAULT '',
  "brokerLicense" text NOT NULL DEFAULT '',
  "brokerEmail" text NOT NULL DEFAULT '',
  "byEmail" text NOT NULL DEFAULT '',
  "signedName" text NOT NULL DEFAULT '',
  "signedLicense" text NOT NULL DEFAULT '',
  "signedIp" text NOT NULL DEFAULT '',
  "signedAgent" text NOT NULL DEFAULT '',
  "expiresAt" text NOT NULL DEFAULT '',
  "createdAt" text NOT NULL DEFAULT ''
);
CREATE INDEX "BrokerSignoffs_referralId" ON "BrokerSignoffs" ("referralId");
