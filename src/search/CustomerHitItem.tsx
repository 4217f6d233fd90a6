import type { MouseEvent } from 'react';
import { Highlight } from 'react-instantsearch';
import { Link } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { AVATAR_SIZE, customerHitPath } from '@contract/searchRules';
import type { CustomerHit } from '@contract/search';
import { AVATAR_OFFLINE_FALLBACK, avatarUrl } from './searchRules';

interface Props {
  id: string;
  hit: CustomerHit;
  selected: boolean;
  onHover(): void;
  onOpen(): void;
}

const avatarSize = { width: AVATAR_SIZE, height: AVATAR_SIZE };

/**
 * A 60x60 avatar, the full name (matches highlighted), the e-mail and mb_client_id.
 * Plain elements styled once by the list (CustomerHitList's `hitStyles`): twenty MUI list items
 * per keystroke cost more to render than the search itself.
 */
export const CustomerHitItem = ({ id, hit, selected, onHover, onOpen }: Props) => {
  const translate = useTranslate();
  const highlighted = (attribute: keyof CustomerHit) =>
    (hit as unknown as { _highlightResult?: Record<string, unknown> })._highlightResult?.[attribute] ? (
      <Highlight attribute={attribute} hit={hit as never} />
    ) : (
      String(hit[attribute] ?? '')
    );
  return (
    <Link
      id={id}
      role="option"
      aria-selected={selected}
      className={selected ? 'hit hit-selected' : 'hit'}
      to={customerHitPath(hit)}
      onMouseEnter={onHover}
      onClick={(event: MouseEvent) => {
        // Plain clicks navigate inside the app; modified clicks (new tab) keep the browser's way.
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onOpen();
      }}
    >
      <span className="hit-avatar" style={avatarSize}>
        <img
          src={avatarUrl(hit.email_address ?? '')}
          alt=""
          width={AVATAR_SIZE}
          height={AVATAR_SIZE}
          referrerPolicy="no-referrer"
          onError={(event) => {
            const img = event.currentTarget;
            if (!img.src.endsWith(AVATAR_OFFLINE_FALLBACK)) img.src = AVATAR_OFFLINE_FALLBACK;
          }}
        />
      </span>
      <span className="hit-text">
        <span className="hit-name">{highlighted('title')}</span>
        <span className="hit-detail">{highlighted('email_address')}</span>
        {hit.mb_client_id && <span className="hit-detail">{translate('search.mindbody_id', { id: hit.mb_client_id })}</span>}
      </span>
    </Link>
  );
};
