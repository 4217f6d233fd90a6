import { describe, expect, it } from 'vitest';
import { fillPlaceholders, hasPlaceholders, unknownPlaceholders } from '@contract/placeholders';

const client = { first_name: 'Jordan', last_name: 'Rivera', class_name: 'Morning Flow', days_absent: 12, class_count: 50 };

describe('fillPlaceholders', () => {
  it('fills every known placeholder with the client value', () => {
    expect(fillPlaceholders('{first_name} {last_name}: {class_name}, {days_absent} days, class {class_count}', client)).toBe(
      'Jordan Rivera: Morning Flow, 12 days, class 50',
    );
  });

  it('fills a placeholder as often as it appears', () => {
    expect(fillPlaceholders('{first_name}! {first_name}!', client)).toBe('Jordan! Jordan!');
  });

  it('tolerates capitals and spaces inside the braces', () => {
    expect(fillPlaceholders('Hi { First_Name }', client)).toBe('Hi Jordan');
  });

  it('uses the fallback for a missing, null or blank value', () => {
    expect(fillPlaceholders('Hey {first_name}, we missed you in {class_name}', {})).toBe('Hey there, we missed you in class');
    expect(fillPlaceholders("It's been {days_absent} days", { days_absent: null })).toBe("It's been a few days");
    expect(fillPlaceholders('Hi {first_name}', { first_name: '  ' })).toBe('Hi there');
  });

  it('keeps a zero count rather than falling back', () => {
    expect(fillPlaceholders('{class_count} classes', { class_count: 0 })).toBe('0 classes');
  });

  it('leaves unknown placeholders and plain braces as typed', () => {
    expect(fillPlaceholders('Hi {frist_name} {}', client)).toBe('Hi {frist_name} {}');
  });

  it('returns text without placeholders unchanged', () => {
    expect(fillPlaceholders('Kick off Monday with our most popular class.', client)).toBe('Kick off Monday with our most popular class.');
  });
});

describe('unknownPlaceholders / hasPlaceholders', () => {
  it('lists each unknown placeholder once', () => {
    expect(unknownPlaceholders('{frist_name} {first_name} {frist_name} {coach}')).toEqual(['{frist_name}', '{coach}']);
    expect(unknownPlaceholders('{first_name}')).toEqual([]);
  });

  it('tells whether a template uses a known placeholder', () => {
    expect(hasPlaceholders('Hi {first_name}')).toBe(true);
    expect(hasPlaceholders('Hi {frist_name}')).toBe(false);
    expect(hasPlaceholders('Hi there')).toBe(false);
  });
});
