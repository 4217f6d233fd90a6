import { Create, FormDataConsumer, maxLength, required, SimpleForm, TextInput, useTranslate } from 'react-admin';
import { SEGMENT_NAME_MAX } from '@contract/segmentRules';
import { PageHeader } from '../layout/PageHeader';
import { clientFilterOf } from '../common/listPaging';
import { SegmentFilterInputs } from './SegmentFilterInputs';
import { SegmentPreviewPanel } from './SegmentPreviewPanel';
import { segmentPath } from './segmentPaths';
import { SEGMENTS_RESOURCE } from './segmentsData';

/**
 * 'New segment': a filter, its preview, a name. A client list's 'Save as segment' opens it with
 * that list's filter (react-admin's `?source=` prefill). Saved, it opens as a client list.
 */
const SegmentCreate = () => {
  const translate = useTranslate();
  return (
    <>
      <PageHeader title={translate('segments.create_title')} />
      <Create
        resource={SEGMENTS_RESOURCE}
        title={false}
        redirect={(_resource, id) => segmentPath(Number(id)).slice(1)}
        transform={(data: { name?: string; filter?: Record<string, unknown> }) => ({ name: data.name?.trim() ?? '', filter: clientFilterOf(data.filter) })}
        sx={{ maxWidth: 900 }}
      >
        <SimpleForm>
          <TextInput source="name" label={translate('segments.fields.name')} validate={[required(), maxLength(SEGMENT_NAME_MAX)]} fullWidth />
          <SegmentFilterInputs />
          <FormDataConsumer>{({ formData }) => <SegmentPreviewPanel values={formData.filter} />}</FormDataConsumer>
        </SimpleForm>
      </Create>
    </>
  );
};

export default SegmentCreate;
