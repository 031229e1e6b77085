-- A reply that came by mail says so (docs/decisions/0071); rows before it are from the site.
ALTER TABLE "Messages" ADD COLUMN "via" text COLLATE "C" NOT NULL DEFAULT '';
