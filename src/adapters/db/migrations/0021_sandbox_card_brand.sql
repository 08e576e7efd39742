-- The sandbox provider keeps the brand of the card that paid beside its last 4 digits (what a
-- receipt names: "Visa ending 4242"), read from the number's leading digits as Stripe names brands.
-- Intents paid before it have NULL: their card reads as brand `unknown`.
ALTER TABLE sandbox_payment_intents ADD COLUMN IF NOT EXISTS card_brand text CHECK (card_brand ~ '^[a-z_]{1,30}$');
