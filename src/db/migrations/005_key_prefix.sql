-- The shown key prefix no longer keeps characters of the key itself: four characters of its hash.
UPDATE api_keys SET key_prefix = 'vgl_…' || left(key_hash, 4) WHERE key_prefix NOT LIKE 'vgl_…%';
