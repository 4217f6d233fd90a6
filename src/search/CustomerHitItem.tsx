import type { MouseEvent } from 'react';
import { Avatar, ListItemAvatar, ListItemButton, ListItemText } from '@mui/material';
import { Highlight } from 'react-instantsearch';
import { Link } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { AVATAR_SIZE, customerHitPath } from '../../contract/searchRules';
import type { CustomerHit } from '../../contract/search';
import { AVATAR_OFFLINE_FALLBACK, avatarUrl } from './searchRules';

interface Props {
  id: string;
  hit: CustomerHit;
  selected: boolean;
  onHover(): void;
  onOpen(): void;
}

/** Spec §2: a 60x60 avatar, the full name (matches highlighted), the e-mail and mb_client_id. */
export const CustomerHitItem = ({ id, hit, selected, onHover, onOpen }: Props) => {
  const translate = useTranslate();
  const highlighted = (attribute: keyof CustomerHit) =>
    (hit as unknown as { _highlightResult?: Record<string, unknown> })._highlightResult?.[attribute] ? (
      <Highlight attribute={attribute} hit={hit as never} />
    ) : (
      String(hit[attribute] ?? '')
    );
  return (
    <ListItemButton
      id={id}
      role="option"
      aria-selected={selected}
      selected={selected}
      component={Link}
      to={customerHitPath(hit)}
      onMouseEnter={onHover}
      onClick={(event: MouseEvent) => {
        // Plain clicks navigate inside the app; modified clicks (new tab) keep the browser's way.
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onOpen();
      }}
      sx={{ gap: 1.5, alignItems: 'center' }}
    >
      <ListItemAvatar sx={{ minWidth: 0 }}>
        <Avatar
          src={avatarUrl(hit.email_address ?? '')}
          alt=""
          sx={{ width: AVATAR_SIZE, height: AVATAR_SIZE }}
          slotProps={{
            img: {
              referrerPolicy: 'no-referrer',
              onError: (event) => {
                const img = event.currentTarget;
                if (!img.src.endsWith(AVATAR_OFFLINE_FALLBACK)) img.src = AVATAR_OFFLINE_FALLBACK;
              },
            },
          }}
        />
      </ListItemAvatar>
      <ListItemText
        primary={highlighted('title')}
        secondary={
          <>
            <span style={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis' }}>{highlighted('email_address')}</span>
            {hit.mb_client_id && <span style={{ display: 'block' }}>{translate('search.mindbody_id', { id: hit.mb_client_id })}</span>}
          </>
        }
        slotProps={{ primary: { sx: { fontWeight: 600 } }, secondary: { component: 'div' } }}
      />
    </ListItemButton>
  );
};
