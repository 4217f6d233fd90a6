import { Button } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useParams } from 'react-router-dom';
import {
  BooleanInput,
  Edit,
  Link,
  maxLength,
  ReferenceInput,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  useNotify,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { VIDEO_ACCESS_LEVELS } from '@contract/videos';
import { PageHeader } from '../layout/PageHeader';
import { VideoVimeoSummary } from './VideoVimeoSummary';

const levelChoices = VIDEO_ACCESS_LEVELS.map(({ id }) => ({ id, name: `videos.access_levels.${id}` }));
const validateTitle = [required('videos.edit.title_required'), maxLength(200, 'videos.edit.too_long')];
const validateInstructor = maxLength(120, 'videos.edit.too_long');

// 'No category' is the empty choice; the server takes null for it.
const emptyAsNull = (value: unknown) => (value === '' ? null : value);

const SaveOnly = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

/** Edit form (our extension): title, instructor, category, access level, enabled. */
const VideoEdit = () => {
  const { id } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <>
      <PageHeader
        title={translate('videos.edit.title')}
        actions={
          <Button component={Link} to="/videos" startIcon={<ArrowBackIcon />}>
            {translate('videos.edit.back')}
          </Button>
        }
      />
      {/* Pessimistic, so the server's field errors show next to their inputs. */}
      <Edit
        resource="videos"
        id={id}
        title={false}
        actions={false}
        mutationMode="pessimistic"
        mutationOptions={{
          onSuccess: () => {
            notify('videos.notify.saved', { type: 'info' });
            redirect('/videos');
          },
        }}
      >
        <SimpleForm toolbar={<SaveOnly />} sx={{ maxWidth: 640 }}>
          <VideoVimeoSummary />
          <TextInput source="title" label="videos.edit.fields.title" validate={validateTitle} fullWidth />
          <TextInput source="instructor" label="videos.edit.fields.instructor" validate={validateInstructor} fullWidth />
          <ReferenceInput source="category_id" reference="video-categories">
            <SelectInput optionText="name" label="videos.edit.fields.category" emptyText="videos.edit.no_category" parse={emptyAsNull} fullWidth />
          </ReferenceInput>
          <SelectInput
            source="access_level_id"
            label="videos.edit.fields.access_level"
            choices={levelChoices}
            validate={required('videos.edit.access_level_required')}
            fullWidth
          />
          <BooleanInput source="enabled" label="videos.edit.fields.enabled" />
        </SimpleForm>
      </Edit>
    </>
  );
};

export default VideoEdit;
