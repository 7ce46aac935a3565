-- Draw offers (lichess's habits): the side whose offer stands until the other side moves or
-- answers, and for each side the move count when its last offer was declined (it may offer again
-- only a few moves later: model::DRAW_AGAIN_AFTER).
ALTER TABLE games ADD COLUMN draw_offer TEXT;              -- 'white' or 'black'
ALTER TABLE games ADD COLUMN white_draw_declined BIGINT;
ALTER TABLE games ADD COLUMN black_draw_declined BIGINT;
