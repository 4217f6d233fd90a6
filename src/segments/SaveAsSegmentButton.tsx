import { Button } from '@mui/material';
import SaveIcon from '@mui/icons-material/BookmarkAddOutlined';
import { Link } from 'react-router-dom';
import { useListContext, useTranslate } from 'react-admin';
import { LIST_RULES } from '@contract/clientFilterRules';
import { clientFilterOf } from '../common/listPaging';
import { useCan } from '../layout/useCan';
import { newSegmentWith } from './segmentPaths';

/** A client list's 'Save as segment': the new-segment page with the list's rule and filters filled in. */
export const SaveAsSegmentButton = ({ listId }: { listId: 1 | 2 | 3 | 4 }) => {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  if (!useCan('segments', 'create')) return null;
  return (
    <Button component={Link} to={newSegmentWith({ ...LIST_RULES[listId], ...clientFilterOf(filterValues) })} startIcon={<SaveIcon />} size="small">
      {translate('segments.save_as')}
    </Button>
  );
};
