import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import type { Broadcast } from '@contract/broadcasts';
import { OutcomeSummary } from '../common/OutcomeSummary';
import { outcomeClientsPath } from '../common/outcomeWords';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { VariantResults } from './VariantResults';

/** A sent (or sending) broadcast's results in plain words, read again while the list refreshes. */
export const BroadcastOutcomeCell = ({ broadcast }: { broadcast: Broadcast }) => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const shown = broadcast.status === 'sent' || broadcast.status === 'sending';
  const outcome = useQuery({
    queryKey: ['broadcasts', broadcast.id, 'outcome'],
    queryFn: () => dataProvider.getBroadcastOutcome(broadcast.id),
    enabled: shown,
    staleTime: 30_000,
    retry: false,
  });
  if (!shown) return null;
  if (outcome.isPending)
    return (
      <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
        {translate('outcomes.loading')}
      </Typography>
    );
  if (outcome.isError)
    return (
      <Typography variant="body2" color="error" component="span" sx={{ display: 'block' }}>
        {translate('outcomes.failed')}
      </Typography>
    );
  return (
    <>
      <OutcomeSummary
        figures={outcome.data}
        goal={outcome.data.goal}
        windowDays={outcome.data.window_days}
        clientsPath={(group) => outcomeClientsPath(`broadcast:${broadcast.id}:${group}`)}
      />
      <VariantResults outcome={outcome.data} metric={broadcast.winner_metric ?? 'conversion'} />
    </>
  );
};
