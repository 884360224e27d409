import { ResourceVersionSigner } from './resource-version';

describe('ResourceVersionSigner', () => {
  afterEach(() => jest.restoreAllMocks());

  it('verifies what it signed, and nothing altered', () => {
    const signer = new ResourceVersionSigner(() => 'key one');
    const rv = signer.sign('12-00000000000000ab.7-00000000000000cd');
    expect(signer.verify(rv)).toBe('12-00000000000000ab.7-00000000000000cd');
    expect(signer.verify(rv.replace('12-', '13-'))).toBeUndefined();
    expect(new ResourceVersionSigner(() => 'key two').verify(rv)).toBeUndefined();
  });

  it('signs the same positions again under a rotated key, and still verifies the previous signature', () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    let key = 'key one';
    const signer = new ResourceVersionSigner(() => key);
    const positions = '12-00000000000000ab';
    const before = signer.sign(positions);
    expect(signer.sign(positions)).toBe(before);
    key = 'key two';
    now += 60_000;
    const after = signer.sign(positions);
    expect(after).not.toBe(before);
    expect(after).toBe(new ResourceVersionSigner(() => 'key two').sign(positions));
    expect(signer.verify(before)).toBe(positions);
    expect(signer.verify(after)).toBe(positions);
  });
});
