import { amountsOf, formatUnits, quantitiesOf, toUnits } from './amounts';

describe('quota amounts in units', () => {
  it('counts CPU in millicores and everything else in whole units', () => {
    expect(toUnits('requests.cpu', '1.5', 'down')).toBe(1500n);
    expect(toUnits('limits.cpu', '250m', 'down')).toBe(250n);
    expect(toUnits('pods', '20', 'down')).toBe(20n);
    expect(toUnits('requests.memory', '1Gi', 'down')).toBe(1073741824n);
    expect(toUnits('count/services', 7, 'down')).toBe(7n);
  });

  it('rounds a budget down and a use up, so neither is ever overstated in the safe direction', () => {
    expect(toUnits('requests.cpu', '0.0005', 'down')).toBe(0n);
    expect(toUnits('requests.cpu', '0.0005', 'up')).toBe(1n);
    expect(toUnits('requests.memory', '1.5', 'down')).toBe(1n);
    expect(toUnits('requests.memory', '1.5', 'up')).toBe(2n);
  });

  it('answers undefined for what is no quantity, or too large to hold', () => {
    expect(toUnits('pods', 'twenty', 'down')).toBeUndefined();
    expect(toUnits('pods', '1e999999', 'down')).toBeUndefined();
    expect(amountsOf({ pods: '2', cpu: 'x' }, 'down')).toEqual(new Map([['pods', 2n]]));
  });

  it('formats units back as quantities', () => {
    expect(formatUnits('requests.cpu', 1500n)).toBe('1500m');
    expect(formatUnits('requests.cpu', 2000n)).toBe('2');
    expect(quantitiesOf(new Map([['pods', 5n], ['cpu', 250n]]))).toEqual({ cpu: '250m', pods: '5' });
  });
});
