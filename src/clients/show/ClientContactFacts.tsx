import { Box, Link, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientGlance } from '@contract/glance';
import { dateTime } from '../../common/format';
import { Fact } from './GlanceFact';

const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

/**
 * What front-desk staff look for first on a client's page, beside the glance's facts: the phone,
 * how often the client comes, how long since the last class, what they spent, when the app last
 * opened, and the classes they booked in Mindbody.
 */
export const ClientContactFacts = ({ glance }: { glance: ClientGlance }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.glance.${key}`, options);
  const days = glance.days_since_last_visit;
  return (
    <>
      <Fact label={t('phone')} field="phone">
        {glance.phone ? <Link href={`tel:${glance.phone.replace(/[^+\d]/g, '')}`}>{glance.phone}</Link> : t('none')}
      </Fact>
      <Fact label={t('visits')} field="visits">
        {t('visits_counts', { total: glance.visits_total.toLocaleString(), recent: glance.visits_30d.toLocaleString() })}
      </Fact>
      <Fact label={t('last_visit')} field="last_visit">
        {days === null ? t('never') : days === 0 ? t('days_today') : t('days_since', { smart_count: days })}
      </Fact>
      <Fact label={t('total_spent')} field="total_spent">
        <span title={t('total_spent_hint')}>{glance.total_spent_usd === null ? t('nothing_spent') : usd.format(glance.total_spent_usd)}</span>
      </Fact>
      <Fact label={t('last_app_open')} field="last_app_open">
        {glance.last_app_open ? dateTime(glance.last_app_open) : t('never')}
      </Fact>
      <Fact label={t('upcoming')} field="upcoming">
        {glance.upcoming_classes.length === 0 ? (
          t('no_upcoming')
        ) : (
          <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {glance.upcoming_classes.map((visit) => (
              <Typography component="li" key={`${visit.at}-${visit.name}`} variant="body2">
                {visit.name} · <span style={{ whiteSpace: 'nowrap' }}>{dateTime(visit.at)}</span>
              </Typography>
            ))}
          </Box>
        )}
      </Fact>
    </>
  );
};
