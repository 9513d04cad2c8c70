-- kallo:stop Drops columns of `plans` that versions before it read (the monthly price, currency, quality and features): a server still running them fails on every plan until it runs this version.
ALTER TABLE `movies` ADD `returned_at` integer;--> statement-breakpoint
ALTER TABLE `movies` ADD `return_reason` text;--> statement-breakpoint
ALTER TABLE `movies` ADD `return_note` text;--> statement-breakpoint
ALTER TABLE `plans` ADD `name_ha` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `description` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `description_ha` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `premium` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `max_rung` integer DEFAULT 1080 NOT NULL;--> statement-breakpoint
-- Hand-written: carry what plans allowed over to the new columns before the old ones go. Every paid pass used to unlock Premium titles; "sd" capped at 480p, "hd" and "uhd" at the ladder's top (1080p); the Hausa name starts as the English one.
UPDATE `plans` SET `premium` = CASE WHEN `code` = 'FREE' THEN 0 ELSE 1 END, `max_rung` = CASE WHEN `max_quality` = 'sd' THEN 480 ELSE 1080 END, `name_ha` = `name`;--> statement-breakpoint
-- Hand-written (mended): keep each plan's currency before the column goes; migration 0020 gives it to the plan's prices.
CREATE TABLE `plan_currency_before_0018` (`plan_id` text PRIMARY KEY NOT NULL, `currency` text NOT NULL);--> statement-breakpoint
INSERT INTO `plan_currency_before_0018` (`plan_id`, `currency`) SELECT `id`, `currency` FROM `plans`;--> statement-breakpoint
ALTER TABLE `plans` DROP COLUMN `monthly_price_minor`;--> statement-breakpoint
ALTER TABLE `plans` DROP COLUMN `currency`;--> statement-breakpoint
ALTER TABLE `plans` DROP COLUMN `annual_discount_percent`;--> statement-breakpoint
ALTER TABLE `plans` DROP COLUMN `max_quality`;--> statement-breakpoint
ALTER TABLE `plans` DROP COLUMN `features`;--> statement-breakpoint
ALTER TABLE `series` ADD `returned_at` integer;--> statement-breakpoint
ALTER TABLE `series` ADD `return_reason` text;--> statement-breakpoint
ALTER TABLE `series` ADD `return_note` text;--> statement-breakpoint
CREATE INDEX `passes_plan_idx` ON `passes` (`plan_id`,`ends_at`);--> statement-breakpoint
CREATE INDEX `payments_plan_idx` ON `payments` (`plan_id`);--> statement-breakpoint
CREATE INDEX `redeem_codes_plan_idx` ON `redeem_codes` (`plan_id`);