import { ResourceVersionSeal } from './version-seal';

const plain = (text: string) => Buffer.from(text);

describe('ResourceVersionSeal', () => {
  afterEach(() => jest.restoreAllMocks());

  it('opens what it sealed, and nothing altered in any character', () => {
    const seal = new ResourceVersionSeal(() => 'key one');
    const sealed = seal.seal(plain('positions of three sources, and a row'));
    expect(seal.open(sealed)).toEqual(plain('positions of three sources, and a row'));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < sealed.length; i++) {
      const other = alphabet[(alphabet.indexOf(sealed[i]) + 1) % alphabet.length];
      expect(seal.open(sealed.slice(0, i) + other + sealed.slice(i + 1))).toBeUndefined();
    }
    expect(seal.open(sealed.slice(0, -4))).toBeUndefined();
    expect(seal.open(`${sealed}AAAA`)).toBeUndefined();
  });

  it('shows nothing of the plaintext: base64url of a tag and a ciphertext, not of the bytes sealed', () => {
    const seal = new ResourceVersionSeal(() => 'key one');
    const text = '812-3fa4c0de11b2a7e9.790-0000000000000000';
    const sealed = seal.seal(plain(text));
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('812');
    expect(Buffer.from(sealed, 'base64url').includes(plain(text))).toBe(false);
    // Plaintexts one bit apart share no byte position by more than chance.
    const a = Buffer.from(seal.seal(Buffer.alloc(64)), 'base64url');
    const flipped = Buffer.alloc(64);
    flipped[63] = 1;
    const b = Buffer.from(seal.seal(flipped), 'base64url');
    let same = 0;
    for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
    expect(same).toBeLessThan(8);
  });

  it('seals alike on every replica that shares the key (and after a restart), and another key opens nothing', () => {
    const one = new ResourceVersionSeal(() => 'serving key');
    const other = new ResourceVersionSeal(() => 'serving key');
    const sealed = one.seal(plain('a state of every source'));
    expect(other.seal(plain('a state of every source'))).toBe(sealed);
    expect(other.open(sealed)).toEqual(plain('a state of every source'));
    expect(new ResourceVersionSeal(() => 'another key').open(sealed)).toBeUndefined();
  });

  it('seals again under a rotated key, and still opens what the previous key sealed', () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    let key = 'key one';
    const seal = new ResourceVersionSeal(() => key);
    const before = seal.seal(plain('a state of every source'));
    expect(seal.seal(plain('a state of every source'))).toBe(before);
    key = 'key two';
    now += 60_000;
    const after = seal.seal(plain('a state of every source'));
    expect(after).not.toBe(before);
    expect(after).toBe(new ResourceVersionSeal(() => 'key two').seal(plain('a state of every source')));
    expect(seal.open(before)).toEqual(plain('a state of every source'));
    expect(seal.open(after)).toEqual(plain('a state of every source'));
    key = 'key three';
    now += 60_000;
    expect(seal.open(before)).toBeUndefined();
  });

  it('keeps sealing with the keys in use while the key cannot be read, and reads it again later', () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    let key: string | undefined = 'key one';
    const seal = new ResourceVersionSeal(() => {
      if (key === undefined) throw new Error('ENOENT: the key file is being replaced');
      return key;
    });
    const before = seal.seal(plain('a state of every source'));
    key = undefined;
    now += 60_000;
    expect(seal.seal(plain('another state'))).toBe(new ResourceVersionSeal(() => 'key one').seal(plain('another state')));
    expect(seal.open(before)).toEqual(plain('a state of every source'));
    key = 'key two';
    now += 60_000;
    expect(seal.seal(plain('another state'))).toBe(new ResourceVersionSeal(() => 'key two').seal(plain('another state')));
    expect(() => new ResourceVersionSeal(() => { throw new Error('no key'); }).seal(plain('x'))).toThrow('no key');
  });

  it('with no key ever read, refuses to seal with the read\'s own error until a read succeeds, and opens nothing', () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    let key: string | undefined;
    const seal = new ResourceVersionSeal(() => {
      if (key === undefined) throw new Error('the serving key does not parse');
      return key;
    });
    expect(() => seal.seal(plain('x'))).toThrow('the serving key does not parse');
    // Within the 10 s between reads: the same refusal, not a failure of its own.
    now += 1000;
    expect(() => seal.seal(plain('x'))).toThrow('the serving key does not parse');
    expect(seal.open(new ResourceVersionSeal(() => 'key one').seal(plain('x')))).toBeUndefined();
    key = 'key one';
    now += 60_000;
    expect(seal.seal(plain('x'))).toBe(new ResourceVersionSeal(() => 'key one').seal(plain('x')));
  });

  it.each([
    ['nothing', ''], ['a word', 'abc'], ['a number', '1.5'], ['a colon', 'p:1'], ['too short a text', 'A'.repeat(43)], ['too long a text', 'A'.repeat(2000)],
    ['padded base64', `${'A'.repeat(60)}=`], ['standard base64', `${'A'.repeat(60)}+/`],
  ])('does not take %s for a sealed resourceVersion', (_what, text) => {
    expect(ResourceVersionSeal.isSealedShape(text)).toBe(false);
    expect(new ResourceVersionSeal(() => 'k').open(text)).toBeUndefined();
  });
});

describe('the cipher of ResourceVersionSeal', () => {
  it("is AES-256-CTR from the tag, as OpenSSL's aes-256-ctr computes it, for every length and across a counter carry", () => {
    const { createCipheriv, createHmac, hkdfSync } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const derived = Buffer.from(hkdfSync('sha256', Buffer.from('serving key'), Buffer.alloc(0), 'paddock resourceVersion seal', 64));
    const seal = new ResourceVersionSeal(() => 'serving key');
    const tagOf = (data: Buffer) => createHmac('sha256', derived.subarray(0, 32)).update(data).digest().subarray(0, 16);
    // 300 bytes are 19 counter blocks: a tag whose last byte is past 0xed carries into the byte before it.
    let carried = Buffer.alloc(300);
    for (let fill = 0; tagOf(carried)[15] <= 0xed; fill++) carried = Buffer.alloc(300, fill);
    for (const data of [17, 31, 32, 33, 65, 300].map((length) => Buffer.alloc(length, length)).concat([carried])) {
      const sealed = Buffer.from(seal.seal(data), 'base64url');
      const tag = tagOf(data);
      expect(sealed.subarray(0, 16)).toEqual(tag);
      const reference = createCipheriv('aes-256-ctr', derived.subarray(32), tag);
      expect(sealed.subarray(16)).toEqual(Buffer.concat([reference.update(data), reference.final()]));
    }
  });
});
