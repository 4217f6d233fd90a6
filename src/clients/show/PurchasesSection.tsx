import { useTranslate } from 'react-admin';
import type { Purchase } from '@contract/clients';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { useClientSection } from './clientSections';
import { CollapsibleSection } from './CollapsibleSection';
import { EmptyText, SectionState } from '../../common/SectionState';
import { SimpleTable } from '../../common/SimpleTable';

/** Test-store purchases (TestFlight, sandbox accounts): kept for the record, they give no access on a live studio. */
const isSandbox = (purchase: Purchase) => purchase.environment?.trim().toUpperCase() === 'SANDBOX';

const COLUMNS = ['revenue_cat_user_id', 'access_level', 'subscription_identifier', 'upsell_source', 'purchased_at', 'expires_at', 'status'];

export const PurchasesSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const query = useClientSection<Purchase>(client, 'purchases', (dp, c) => dp.getClientPurchases(c), { log: true });
  const t = (key: string) => translate(`client.sections.purchases.${key}`);
  return (
    <CollapsibleSection title={t('title')}>
      <SectionState title={t('title')} query={query} empty={<EmptyText>{t('empty')}</EmptyText>}>
        {(purchases) => (
          <SimpleTable
            headers={COLUMNS.map((column) => t(`columns.${column}`))}
            rows={purchases}
            rowKey={(_purchase, index) => index}
            cells={(purchase) => [
              purchase.revenue_cat_user_id ?? '',
              purchase.name ?? '',
              purchase.subscription_identifier ?? '',
              purchase.upsell_source ?? '',
              dateTime(purchase.purchased_at),
              dateTime(purchase.expires_at),
              [purchase.subscription_status, isSandbox(purchase) ? t('sandbox') : null].filter(Boolean).join(' · '),
            ]}
          />
        )}
      </SectionState>
    </CollapsibleSection>
  );
};
