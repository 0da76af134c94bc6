import { describe, expect, it } from 'vitest';
import { ifNoneMatchCoincide } from '../../../server/http/middleware/conditional';

describe('If-None-Match (RFC 9110 §13.1.2): weak comparison, `*`, lists', () => {
  const etag = '"3f1a"';

  it('matches the same tag, strong or weak on either side', () => {
    expect(ifNoneMatchCoincide('"3f1a"', etag)).toBe(true);
    expect(ifNoneMatchCoincide('W/"3f1a"', etag)).toBe(true);
    expect(ifNoneMatchCoincide('"3f1a"', 'W/"3f1a"')).toBe(true);
    expect(ifNoneMatchCoincide('W/"3f1a"', 'W/"3f1a"')).toBe(true);
  });

  it('matches any current representation with `*`', () => {
    expect(ifNoneMatchCoincide('*', etag)).toBe(true);
    expect(ifNoneMatchCoincide(' * ', 'W/"x"')).toBe(true);
  });

  it('matches one tag of a list, commas inside a tag included', () => {
    expect(ifNoneMatchCoincide('"a", W/"b" ,"3f1a"', etag)).toBe(true);
    expect(ifNoneMatchCoincide('"a,b"', '"a,b"')).toBe(true);
    expect(ifNoneMatchCoincide('"a,b"', '"a"')).toBe(false);
  });

  it('does not match another tag, a tag without quotes, a different case or a prefix', () => {
    expect(ifNoneMatchCoincide('"3f1b"', etag)).toBe(false);
    expect(ifNoneMatchCoincide('3f1a', etag)).toBe(false);
    expect(ifNoneMatchCoincide('"3F1A"', etag)).toBe(false);
    expect(ifNoneMatchCoincide('"3f1"', etag)).toBe(false);
    expect(ifNoneMatchCoincide('"", "x"', etag)).toBe(false);
    expect(ifNoneMatchCoincide('"3f1a"', '3f1a')).toBe(false);
  });
});
