// The read cache: entries live for their TTL, a TTL of 0 caches nothing, the size is bounded.
import { ttlCache } from '../../gateway/http/cache';

test('entries expire after the TTL; 0 disables caching; the oldest entries go first', () => {
    let now = 0;
    const cache = ttlCache<number>(30_000, 2, () => now);
    cache.set('a', 1);
    now = 29_999;
    expect(cache.get('a')).toBe(1);
    now = 30_000;
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 2, 0);
    expect(cache.get('b')).toBeUndefined();
    cache.set('c', 3);
    cache.set('d', 4);
    cache.set('e', 5);
    expect([cache.get('c'), cache.get('d'), cache.get('e')]).toEqual([undefined, 4, 5]);
});
