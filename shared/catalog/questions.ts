import type { Caller } from '../core/caller';
import { requireActivity } from './products';
import { toQuestion } from './model';
import type { ActivityQuestions } from './schemas';

export async function getActivityQuestions(caller: Caller, activityId: string): Promise<ActivityQuestions> {
  const item = await requireActivity(caller, activityId);
  return {
    Activity: { ActivityID: item.ActivityID, ProductID: item.ProductID, Name: item.Name },
    Questions: item.Questions.map(toQuestion),
  };
}
