import { Box, Chip, Paper, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import type { ClientGlance as Glance } from '@contract/glance';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { day } from '../../common/format';
import { SectionError, SectionLoading } from '../../common/SectionState';
import { ClientContactFacts } from './ClientContactFacts';
import { Fact } from './GlanceFact';

/** A date never breaks at its hyphens on a narrow screen. */
const Day = ({ value }: { value: string }) => <span style={{ whiteSpace: 'nowrap' }}>{day(value)}</span>;

/** Who the client is at a glance, above the summary and sections (what front-desk staff look for first: ClientContactFacts). */
export const ClientGlance = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.glance.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  // Under the client's key: any action on the client refreshes it.
  const query = useQuery({ queryKey: ['clients', client._id, 'glance'], queryFn: () => dataProvider.getClientGlance(client._id), retry: false });
  const none = t('none');
  const body = (glance: Glance) => {
    const plan = glance.plan;
    return (
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 9rem), 1fr))', gap: 2 }}>
        <Fact label={t('member_since')} field="member_since">
          {glance.member_since ? day(glance.member_since) : none}
        </Fact>
        <Fact label={t('last_class')} field="last_class">
          {glance.last_class ? (
            <>
              {glance.last_class.name} · <Day value={glance.last_class.at} />
            </>
          ) : (
            none
          )}
        </Fact>
        <Fact label={t('last_stream')} field="last_stream">
          {glance.last_stream ? (
            <>
              {glance.last_stream.title} · <Day value={glance.last_stream.at} />
            </>
          ) : (
            none
          )}
        </Fact>
        <Fact label={t('plan')} field="plan">
          {plan ? (
            <>
              {plan.name ?? plan.product ?? none}
              <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
                {plan.ends_at ? t(plan.renews ? 'renews' : 'expires', { date: day(plan.ends_at) }) : t('no_end')}
              </Typography>
            </>
          ) : glance.override_ends_at ? (
            // The level in force is the override's, not a plan's: the Override fact beside this one names it.
            t('no_plan_override')
          ) : (
            t('no_plan', { level: glance.level_name ?? none })
          )}
        </Fact>
        {glance.override_ends_at && (
          <Fact label={t('override')} field="override">
            {t('override_until', { level: glance.level_name ?? none, date: day(glance.override_ends_at) })}
          </Fact>
        )}
        <Fact label={t('lifetime_purchases')} field="lifetime_purchases">
          {glance.lifetime_purchases}
        </Fact>
        <Fact label={t('app')} field="app">
          {glance.platforms.length ? glance.platforms.map((platform) => t(`platforms.${platform}`, { _: platform })).join(', ') : none}
          <Typography variant="body2" color={glance.push_reachable ? 'success.main' : 'text.secondary'} component="span" sx={{ display: 'block' }}>
            {t(glance.push_reachable ? 'push_yes' : 'push_no')}
          </Typography>
        </Fact>
        <Fact label={t('mindbody')} field="mindbody">
          {glance.mindbody_linked ? glance.mindbody_status : t('not_linked')}
        </Fact>
        <ClientContactFacts glance={glance} />
        <Fact label={t('tags')} field="tags">
          {glance.tags.length ? (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {glance.tags.map((tag) => (
                <Chip key={tag} label={tag} size="small" />
              ))}
            </Box>
          ) : (
            none
          )}
        </Fact>
      </Box>
    );
  };
  return (
    <Paper component="section" variant="outlined" aria-label={t('title')} sx={{ p: 2, mb: 2 }}>
      {query.isPending ? (
        <SectionLoading />
      ) : query.isError ? (
        <SectionError title={t('title')} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        body(query.data)
      )}
    </Paper>
  );
};
