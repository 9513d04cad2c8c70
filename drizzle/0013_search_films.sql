-- A search's count of published films read every match's title row to learn whether it was an episode
-- (season_id): with season_id in movies_search_idx the count is answered from the index alone
-- (about 1.6 → 0.6 ms for a word 2,900 of 10,000 titles hold).
DROP INDEX `movies_search_idx`;--> statement-breakpoint
CREATE INDEX `movies_search_idx` ON `movies` (`search_rowid`,`status`,`approved`,`season_id`);
